using System.Net;
using System.Net.Sockets;

namespace SensorPipeline.Emulators.Common;

/// <summary>Free TCP ports on 127.0.0.1: for the local Functions host choosing its handler's port, and for the harness.</summary>
public static class LoopbackPort
{
    /// <summary>A port nothing listens on right now. Another program may take it before the caller binds it; that
    /// small race is acceptable for local runs and tests, and a program that can print its own port (--port 0) should.</summary>
    public static int GetFree()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        return ((IPEndPoint)listener.LocalEndpoint).Port;
    }
}
