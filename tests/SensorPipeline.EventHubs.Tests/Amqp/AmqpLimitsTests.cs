using System.Net.Sockets;
using Azure.Messaging.EventHubs;
using Azure.Messaging.EventHubs.Producer;

namespace SensorPipeline.EventHubs.Tests.Amqp;

/// <summary>devhost with small AMQP limits, to see what happens past them: the SDKs get the conditions they map, and
/// the endpoint keeps serving.</summary>
public sealed class AmqpLimitsTests : IAsyncLifetime, IDisposable
{
    private readonly TempDirectory _dir = new();
    private RunningDevHost? _devHost;

    private Uri DevHost => _devHost!.BaseAddress;

    public async Task InitializeAsync()
    {
        var appRoot = Directory.CreateDirectory(Path.Combine(_dir.Path, "app")).FullName;
        _devHost = await RunningDevHost.StartAsync(appRoot, Path.Combine(_dir.Path, "data"), RepoLayout.Current.EventHubsConfig,
            "EventHubs:Amqp:MaxConnections=2", "EventHubs:Amqp:MaxSessionsPerConnection=3", "EventHubs:Amqp:HandshakeTimeout=00:00:05",
            "EventHubs:Amqp:AuthenticationTimeout=00:00:05");
    }

    public async Task DisposeAsync()
    {
        if (_devHost is not null)
        {
            await _devHost.DisposeAsync();
        }
    }

    public void Dispose() => _dir.Dispose();

    [Fact]
    public async Task ConnectionsPastTheLimit_AreRefusedWithQuotaExceeded_AndTheFirstOnesKeepWorking()
    {
        var options = new EventHubProducerClientOptions { RetryOptions = AmqpPeer.NoRetries };
        await using var first = new EventHubProducerClient(AmqpPeer.ConnectionString(DevHost), "ingestion", options);
        await using var second = new EventHubProducerClient(AmqpPeer.ConnectionString(DevHost), "ingestion", options);
        await using var third = new EventHubProducerClient(AmqpPeer.ConnectionString(DevHost), "ingestion", options);
        await first.GetPartitionIdsAsync();
        await second.GetPartitionIdsAsync();
        var refused = await Assert.ThrowsAsync<EventHubsException>(() => third.GetPartitionIdsAsync());
        Assert.Equal(EventHubsException.FailureReason.QuotaExceeded, refused.Reason);
        Assert.Equal(4, (await first.GetPartitionIdsAsync()).Length);
    }

    [Fact]
    public async Task SessionsPastTheLimit_FailTheOperation_NotTheEndpoint()
    {
        // The .NET client opens one session per link ($cbs, then one per partition sender) and honours the channel-max
        // the endpoint's Open announced: the fourth session fails in the client with QuotaExceeded.
        var options = new EventHubProducerClientOptions { RetryOptions = AmqpPeer.NoRetries };
        await using (var producer = new EventHubProducerClient(AmqpPeer.ConnectionString(DevHost), "weather", options))
        {
            var failure = await Assert.ThrowsAsync<EventHubsException>(async () =>
            {
                foreach (var partition in new[] { "0", "1", "2", "3" })
                {
                    await producer.SendAsync([new EventData("x")], new SendEventOptions { PartitionId = partition });
                }
            });
            Assert.Equal(EventHubsException.FailureReason.QuotaExceeded, failure.Reason);
        }

        await using var next = new EventHubProducerClient(AmqpPeer.ConnectionString(DevHost), "weather", options);
        await next.SendAsync([new EventData("still serving")], new SendEventOptions { PartitionId = "0" });
    }

    [Fact]
    public async Task NegotiationThatStops_TakesNoSlot_AndIsClosedAtTheDeadline()
    {
        // Four connections (twice MaxConnections) stop after a protocol header: plain AMQP, or SASL.
        var stalled = new List<TcpClient>();
        foreach (var header in new[] { "AMQP\0\u0001\0\0"u8.ToArray(), "AMQP\u0003\u0001\0\0"u8.ToArray(), "AMQP\0\u0001\0\0"u8.ToArray(), "AMQP\u0003\u0001\0\0"u8.ToArray() })
        {
            var socket = new TcpClient();
            await socket.ConnectAsync("127.0.0.1", DevHost.Port);
            await socket.GetStream().WriteAsync(header);
            stalled.Add(socket);
        }

        try
        {
            await using (var producer = new EventHubProducerClient(AmqpPeer.ConnectionString(DevHost), "ingestion", new EventHubProducerClientOptions { RetryOptions = AmqpPeer.NoRetries }))
            {
                Assert.Equal(4, (await producer.GetPartitionIdsAsync()).Length); // a slot was free: stalled ones hold none
            }

            using var timeout = new CancellationTokenSource(AmqpPeer.Timeout);
            var buffer = new byte[256];
            foreach (var socket in stalled)
            {
                while (await socket.GetStream().ReadAsync(buffer, timeout.Token) > 0)
                {
                    // the header echo, then the close at the deadline
                }
            }
        }
        finally
        {
            stalled.ForEach(s => s.Dispose());
        }
    }

    [Fact]
    public async Task Open_WithoutToken_ClosedWithUnauthorizedAccessAtTheDeadline()
    {
        await using var raw = await RawAmqp.ConnectAsync(DevHost);
        var error = await RawAmqp.ClosedWithAsync(raw.Connection);
        Assert.Equal(Microsoft.Azure.Amqp.AmqpErrorCode.UnauthorizedAccess, error?.Condition);
        Assert.Contains("AuthenticationTimeout", error?.Description, StringComparison.Ordinal);
    }

    [Fact]
    public async Task SilentOrGarbledConnections_AreClosed_AndTheEndpointKeepsServing()
    {
        using var silent = new TcpClient();
        await silent.ConnectAsync("127.0.0.1", DevHost.Port);
        var buffer = new byte[64];
        using var timeout = new CancellationTokenSource(AmqpPeer.Timeout);
        Assert.Equal(0, await silent.GetStream().ReadAsync(buffer, timeout.Token)); // closed after the handshake timeout

        // A valid AMQP header, then a frame of random bytes: the connection dies, nothing else does.
        using var garbled = new TcpClient();
        await garbled.ConnectAsync("127.0.0.1", DevHost.Port);
        var random = new Random(25);
        var frame = new byte[512];
        random.NextBytes(frame);
        await garbled.GetStream().WriteAsync("AMQP\0\u0001\0\0"u8.ToArray(), timeout.Token);
        await garbled.GetStream().WriteAsync(frame, timeout.Token);
        while (await garbled.GetStream().ReadAsync(buffer, timeout.Token) > 0)
        {
            // the header echo, maybe a close: read until the endpoint hangs up
        }

        await using var producer = new EventHubProducerClient(AmqpPeer.ConnectionString(DevHost), "ingestion");
        Assert.Equal(4, (await producer.GetPartitionIdsAsync()).Length);
    }
}
