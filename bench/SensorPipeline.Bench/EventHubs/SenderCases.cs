using System.Net.Http.Headers;
using System.Text;
using Azure.Messaging.EventHubs;
using Azure.Messaging.EventHubs.Producer;
using SensorPipeline.Clients;

namespace SensorPipeline.EventHubs.Bench;

/// <summary>The senders of the study, each over AMQP (the official client) or REST (HttpClient): a new connection per
/// event, one by one on a reused connection, batches of <see cref="BatchSize"/>, the buffered producer.</summary>
internal static class SenderCases
{
    public const int BatchSize = 50;
    public const string AmqpOneByOneName = "AMQP one by one, reused connection";
    public const string RestOneByOneName = "REST one by one, pooled connections";

    /// <summary>Every case at <paramref name="inFlight"/> sends in flight; each creates its clients when asked and
    /// owns them until disposed.</summary>
    public static IEnumerable<(string Name, Func<(Func<CancellationToken, Task<int>> Run, IAsyncDisposable Owned)> Create)> All(DevHostProcess devHost, byte[] body, int inFlight)
    {
        yield return ("AMQP new connection per event", () => (async ct =>
        {
            await using var producer = new EventHubProducerClient(Connection(devHost), "ingestion");
            await producer.SendAsync([new EventData(body)], ct);
            return 1;
        }, Nothing.Instance));
        yield return (AmqpOneByOneName, () => AmqpOneByOne(devHost, body));
        yield return ($"AMQP batch of {BatchSize}", () =>
        {
            var producer = Shared(devHost);
            return (async ct =>
            {
                await producer.SendAsync(Enumerable.Range(0, BatchSize).Select(_ => new EventData(body)), ct);
                return BatchSize;
            }, producer);
        });
        yield return ("AMQP buffered producer", () => Buffered(devHost, body, inFlight));
        yield return ("REST new connection per event", () => (async ct =>
        {
            using var fresh = Http(devHost, 1);
            return await PostAsync(fresh, new ByteArrayContent(body), ct);
        }, Nothing.Instance));
        yield return (RestOneByOneName, () =>
        {
            var http = Http(devHost, inFlight);
            return (ct => PostAsync(http, new ByteArrayContent(body), ct), new Owned(http));
        });
        yield return ($"REST batch of {BatchSize}", () =>
        {
            var http = Http(devHost, inFlight);
            var batch = RestBatch(body);
            return (async ct =>
            {
                var content = new ByteArrayContent(batch);
                content.Headers.ContentType = new MediaTypeHeaderValue("application/vnd.microsoft.servicebus.json");
                await PostAsync(http, content, ct);
                return BatchSize;
            }, new Owned(http));
        });
    }

    public static (Func<CancellationToken, Task<int>> Run, IAsyncDisposable Owned) AmqpOneByOne(DevHostProcess devHost, byte[] body)
    {
        var producer = Shared(devHost);
        return (async ct =>
        {
            await producer.SendAsync([new EventData(body)], ct);
            return 1;
        }, producer);
    }

    private sealed class Nothing : IAsyncDisposable
    {
        public static readonly Nothing Instance = new();

        public ValueTask DisposeAsync() => ValueTask.CompletedTask;
    }

    private sealed class Owned(IDisposable owned) : IAsyncDisposable
    {
        public ValueTask DisposeAsync()
        {
            owned.Dispose();
            return ValueTask.CompletedTask;
        }
    }

    /// <summary>Each sender enqueues and the buffered producer sends on its own schedule; a sender counts what the
    /// producer reported sent since its last call (so the total is what devhost acknowledged).</summary>
    private static (Func<CancellationToken, Task<int>>, IAsyncDisposable) Buffered(DevHostProcess devHost, byte[] body, int inFlight)
    {
        var sent = 0;
        var producer = new EventHubBufferedProducerClient(Connection(devHost), "ingestion", new EventHubBufferedProducerClientOptions { MaximumConcurrentSends = inFlight });
        producer.SendEventBatchSucceededAsync += args =>
        {
            Interlocked.Add(ref sent, args.EventBatch.Count);
            return Task.CompletedTask;
        };
        producer.SendEventBatchFailedAsync += args => Task.FromException(args.Exception);
        return (async ct =>
        {
            if (producer.TotalBufferedEventCount > 10_000)
            {
                await producer.FlushAsync(ct);
            }
            else
            {
                await producer.EnqueueEventAsync(new EventData(body), ct);
            }

            return Interlocked.Exchange(ref sent, 0);
        }, producer);
    }

    private static EventHubProducerClient Shared(DevHostProcess devHost) => new(Connection(devHost), "ingestion");

    private static string Connection(DevHostProcess devHost) =>
        string.Create(CultureInfo.InvariantCulture, $"Endpoint=sb://127.0.0.1:{devHost.BaseAddress.Port};SharedAccessKeyName={EventHubsEmulatorAccount.KeyName};SharedAccessKey={EventHubsEmulatorAccount.Key};UseDevelopmentEmulator=true");

    private static HttpClient Http(DevHostProcess devHost, int connections)
    {
        var token = SharedAccessSignature.Create("sb://emulatorns1.servicebus.windows.net/", EventHubsEmulatorAccount.KeyName, EventHubsEmulatorAccount.Key, DateTimeOffset.UtcNow.AddHours(2));
        var client = new HttpClient(new SocketsHttpHandler { MaxConnectionsPerServer = connections, UseProxy = false }) { BaseAddress = devHost.BaseAddress };
        client.DefaultRequestHeaders.TryAddWithoutValidation("Authorization", token);
        return client;
    }

    private static async Task<int> PostAsync(HttpClient client, HttpContent content, CancellationToken ct)
    {
        using (content)
        using (var response = await client.PostAsync(new Uri("/ingestion/messages", UriKind.Relative), content, ct))
        {
            return response.StatusCode == System.Net.HttpStatusCode.Created ? 1 : throw new InvalidOperationException($"REST send: {(int)response.StatusCode}");
        }
    }

    private static byte[] RestBatch(byte[] body)
    {
        var text = Encoding.UTF8.GetString(body);
        return Encoding.UTF8.GetBytes("[" + string.Join(",", Enumerable.Repeat($"{{\"Body\":\"{text}\"}}", BatchSize)) + "]");
    }
}
