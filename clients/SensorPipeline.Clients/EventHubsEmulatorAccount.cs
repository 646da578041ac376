using System.Globalization;

namespace SensorPipeline.Clients;

/// <summary>The local Event Hubs emulator's namespace, as it serves it and its local clients reach it.</summary>
public static class EventHubsEmulatorAccount
{
    /// <summary>The shared access policy the emulator's well-known key belongs to (as in Microsoft's emulator).</summary>
    public const string KeyName = "RootManageSharedAccessKey";

    /// <summary>The well-known key of the Event Hubs emulators (Microsoft's uses the same literal): the local emulator
    /// checks signatures with it, and only local configuration (never Azure's) hands it to clients.</summary>
    public const string Key = "SAS_KEY_VALUE";

    /// <summary>The connection string of an emulator listening on 127.0.0.1:<paramref name="port"/>, in the form the
    /// official SDKs take (<c>UseDevelopmentEmulator=true</c>).</summary>
    public static string ConnectionString(int port) => string.Create(CultureInfo.InvariantCulture,
        $"Endpoint=sb://127.0.0.1:{port};SharedAccessKeyName={KeyName};SharedAccessKey={Key};UseDevelopmentEmulator=true");
}
