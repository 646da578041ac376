using System.Buffers.Binary;
using System.Net;
using System.Net.Sockets;
using Azure.Messaging.EventHubs;
using Azure.Messaging.EventHubs.Producer;

namespace SensorPipeline.EventHubs.Tests.Amqp;

/// <summary>Frames recorded from a real .NET client session (through a recording proxy), mutated past SASL and Open
/// (random bytes die at the protocol header, which says nothing of the rest) and replayed against devhost: every replay
/// ends (answered, refused or closed), and the endpoint keeps serving. Fixed seed, printed on failure.</summary>
public sealed class AmqpFrameFuzzTests(DevHostFixture fixture) : IClassFixture<DevHostFixture>
{
    private const int Seed = 2511;
    private const int Replays = 48;

    [Fact]
    public async Task Receive_MutatedSessionFrames_EndpointKeepsServing()
    {
        var recorded = await RecordSessionAsync(fixture.DevHost.BaseAddress.Port);
        var start = AfterOpen(recorded);
        Assert.True(start > 0 && start < recorded.Length, $"no Open frame found in {recorded.Length} recorded bytes");

        var random = new Random(Seed);
        var mutations = Enumerable.Range(0, Replays).Select(i => Mutate(recorded, start, random, i)).ToList();
        await Task.WhenAll(mutations.Select(m => ReplayAsync(fixture.DevHost.BaseAddress.Port, m)));

        await using var producer = new EventHubProducerClient(AmqpPeer.ConnectionString(fixture.DevHost.BaseAddress), "seismic");
        await producer.SendAsync([new EventData("after fuzzing")], new SendEventOptions { PartitionId = "0" });
        Assert.Equal(4, (await producer.GetPartitionIdsAsync()).Length);
    }

    /// <summary>Bit flips, random bytes, a cut, or a frame size turned huge, all after the Open frame.</summary>
    private static byte[] Mutate(byte[] recorded, int start, Random random, int i)
    {
        var bytes = (byte[])recorded.Clone();
        switch (i % 4)
        {
            case 0:
                for (var n = 0; n < 8; n++)
                {
                    bytes[random.Next(start, bytes.Length)] ^= (byte)(1 << random.Next(8));
                }

                return bytes;
            case 1:
                var at = random.Next(start, bytes.Length - 16);
                random.NextBytes(bytes.AsSpan(at, 16));
                return bytes;
            case 2:
                return bytes[..random.Next(start, bytes.Length)];
            default:
                BinaryPrimitives.WriteUInt32BigEndian(bytes.AsSpan(start), (uint)random.Next(int.MaxValue / 2, int.MaxValue));
                return bytes;
        }
    }

    /// <summary>Sends the bytes and reads until devhost closes, or the bound passes (a replay whose mutation stayed
    /// valid may wait for more, as a live client would).</summary>
    private static async Task ReplayAsync(int port, byte[] bytes)
    {
        using var client = new TcpClient();
        await client.ConnectAsync(IPAddress.Loopback, port);
        var stream = client.GetStream();
        using var bound = new CancellationTokenSource(TimeSpan.FromSeconds(5));
        try
        {
            await stream.WriteAsync(bytes, bound.Token);
            var buffer = new byte[4096];
            while (await stream.ReadAsync(buffer, bound.Token) > 0)
            {
                // devhost's answers: read until it closes
            }
        }
        catch (Exception e) when (e is IOException or OperationCanceledException or SocketException)
        {
            // reset by devhost, or still open at the bound: either way the replay is over
        }
    }

    /// <summary>The client-to-server bytes of a session that sends a batch and reads the hub's properties.</summary>
    private static async Task<byte[]> RecordSessionAsync(int devHostPort)
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        var proxyPort = ((IPEndPoint)listener.LocalEndpoint).Port;
        var recording = new MemoryStream();
        var proxy = ProxyOneAsync(listener, devHostPort, recording);
        await using (var producer = new EventHubProducerClient(
            $"Endpoint=sb://127.0.0.1:{proxyPort};SharedAccessKeyName={Sas.KeyName};SharedAccessKey={Sas.Key};UseDevelopmentEmulator=true", "seismic"))
        {
            await producer.GetPartitionIdsAsync();
            await producer.SendAsync([new EventData("recorded-1"), new EventData("recorded-2")], new SendEventOptions { PartitionId = "1" });
        }

        await proxy.WaitAsync(AmqpPeer.Timeout);
        return recording.ToArray();
    }

    private static async Task ProxyOneAsync(TcpListener listener, int devHostPort, MemoryStream recording)
    {
        using var client = await listener.AcceptTcpClientAsync();
        using var server = new TcpClient();
        await server.ConnectAsync(IPAddress.Loopback, devHostPort);
        var up = PumpAsync(client.GetStream(), server.GetStream(), recording);
        var down = PumpAsync(server.GetStream(), client.GetStream(), null);
        await Task.WhenAny(up, down);
        client.Close();
        server.Close();
        await Task.WhenAll(up, down);
    }

    private static async Task PumpAsync(NetworkStream from, NetworkStream to, MemoryStream? recording)
    {
        var buffer = new byte[16 * 1024];
        try
        {
            int read;
            while ((read = await from.ReadAsync(buffer)) > 0)
            {
                recording?.Write(buffer, 0, read);
                await to.WriteAsync(buffer.AsMemory(0, read));
            }
        }
        catch (Exception e) when (e is IOException or ObjectDisposedException or SocketException)
        {
            // one side closed
        }
    }

    /// <summary>The offset just past the AMQP Open frame: SASL header (8), SASL frames, AMQP header (8), Open.</summary>
    private static int AfterOpen(byte[] bytes)
    {
        var amqpHeader = "AMQP\0\u0001\0\0"u8.ToArray();
        var at = bytes.AsSpan(8).IndexOf(amqpHeader);
        if (at < 0)
        {
            return -1;
        }

        var open = 8 + at + amqpHeader.Length;
        return open + (int)BinaryPrimitives.ReadUInt32BigEndian(bytes.AsSpan(open));
    }
}
