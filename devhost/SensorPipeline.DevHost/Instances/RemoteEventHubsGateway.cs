using System.Collections.Concurrent;
using System.Globalization;
using System.Net.Http.Headers;

namespace SensorPipeline.DevHost.Instances;

/// <summary>A Functions-host instance's view of the hubs when it runs in its own process: every call goes to the
/// devhost serving the emulator, through <see cref="InternalEndpoints"/>. Bounds are answered from a cache that every
/// read refreshes for its partition and a background loop refreshes for all of them each second: the status snapshot
/// and the stall detector ask synchronously and may see them up to that old.</summary>
internal sealed class RemoteEventHubsGateway : IEventHubsGateway, IAsyncDisposable
{
    private static readonly TimeSpan BoundsRefresh = TimeSpan.FromSeconds(1);
    private readonly HttpClient _http;
    private readonly ConcurrentDictionary<(string Hub, string Partition), PartitionBounds> _bounds = new();
    private readonly CancellationTokenSource _stopping = new();
    private readonly Task _refresher;

    private RemoteEventHubsGateway(HttpClient http, IReadOnlyList<HubInfo> hubs)
    {
        _http = http;
        Hubs = hubs;
        _refresher = RefreshBoundsLoopAsync(_stopping.Token);
    }

    public IReadOnlyList<HubInfo> Hubs { get; }

    /// <summary>Connects to the devhost at <paramref name="devhost"/> and reads its hubs and bounds; fails with the
    /// reason when it does not answer.</summary>
    public static async Task<RemoteEventHubsGateway> ConnectAsync(Uri devhost, CancellationToken cancellationToken)
    {
        var http = new HttpClient(new SocketsHttpHandler { UseProxy = false, PooledConnectionIdleTimeout = TimeSpan.FromMinutes(2) })
        {
            BaseAddress = devhost,
            Timeout = Timeout.InfiniteTimeSpan,
        };
        http.DefaultRequestHeaders.Add(AdminRequestGuard.HeaderName, "1");
        try
        {
            using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
            timeout.CancelAfter(TimeSpan.FromSeconds(30));
            var hubs = await http.GetFromJsonAsync<List<HubDescription>>("internal/hubs", timeout.Token)
                ?? throw new InvalidOperationException($"{devhost}internal/hubs answered null");
            var gateway = new RemoteEventHubsGateway(http, hubs.Select(h =>
                new HubInfo(h.Name, h.PartitionCount, h.ConsumerGroups, h.RetentionSeconds is { } s ? TimeSpan.FromSeconds(s) : null)).ToArray());
            await gateway.RefreshBoundsAsync(timeout.Token);
            return gateway;
        }
        catch (Exception e) when (e is HttpRequestException or OperationCanceledException && !cancellationToken.IsCancellationRequested)
        {
            http.Dispose();
            throw new InvalidOperationException($"--devhost {devhost}: the devhost serving the hubs does not answer ({e.Message})", e);
        }
    }

    public async ValueTask<IReadOnlyList<ReceivedEvent>> ReadAsync(string hub, string partitionId, long fromSequenceNumber, int minEvents, int maxEvents, TimeSpan maxWait, CancellationToken cancellationToken)
    {
        var uri = string.Create(CultureInfo.InvariantCulture,
            $"internal/hubs/{Uri.EscapeDataString(hub)}/partitions/{Uri.EscapeDataString(partitionId)}/events?from={Math.Max(0, fromSequenceNumber)}&min={minEvents}&max={maxEvents}&waitMs={(long)maxWait.TotalMilliseconds}");
        using var response = await _http.GetAsync(uri, HttpCompletionOption.ResponseContentRead, cancellationToken);
        if (!response.IsSuccessStatusCode)
        {
            throw new HttpRequestException($"internal read of {hub}/{partitionId} from {fromSequenceNumber}: {(int)response.StatusCode} {await response.Content.ReadAsStringAsync(cancellationToken)}");
        }

        var body = await response.Content.ReadAsByteArrayAsync(cancellationToken);
        var (bounds, events) = EventFrames.Read(body);
        _bounds[(Key(hub), partitionId)] = bounds;
        return events;
    }

    public async ValueTask AppendAsync(string hub, IReadOnlyList<ReadOnlyMemory<byte>> bodies, CancellationToken cancellationToken)
    {
        using var content = new ByteArrayContent(EventFrames.WriteBodies(bodies));
        content.Headers.ContentType = new MediaTypeHeaderValue("application/octet-stream");
        using var response = await _http.PostAsync($"internal/hubs/{Uri.EscapeDataString(hub)}/events", content, cancellationToken);
        if (!response.IsSuccessStatusCode)
        {
            throw new HttpRequestException($"internal append to {hub}: {(int)response.StatusCode} {await response.Content.ReadAsStringAsync(cancellationToken)}");
        }
    }

    public PartitionBounds GetBounds(string hub, string partitionId) =>
        _bounds.TryGetValue((Key(hub), partitionId), out var bounds) ? bounds : new PartitionBounds(0, -1);

    public async ValueTask DisposeAsync()
    {
        await _stopping.CancelAsync();
        try
        {
            await _refresher;
        }
        catch (OperationCanceledException)
        {
            // Stopped.
        }

        _stopping.Dispose();
        _http.Dispose();
    }

    private async Task RefreshBoundsLoopAsync(CancellationToken cancellationToken)
    {
        while (!cancellationToken.IsCancellationRequested)
        {
            await Task.Delay(BoundsRefresh, cancellationToken);
            try
            {
                await RefreshBoundsAsync(cancellationToken);
            }
            catch (HttpRequestException)
            {
                // The devhost is restarting or gone: status keeps the last bounds; reads report the failure themselves.
            }
        }
    }

    private async Task RefreshBoundsAsync(CancellationToken cancellationToken)
    {
        var all = await _http.GetFromJsonAsync<Dictionary<string, long[][]>>("internal/bounds", cancellationToken) ?? [];
        foreach (var (hub, partitions) in all)
        {
            for (var p = 0; p < partitions.Length; p++)
            {
                _bounds[(Key(hub), p.ToString(CultureInfo.InvariantCulture))] = new PartitionBounds(partitions[p][0], partitions[p][1]);
            }
        }
    }

    private static string Key(string hub) => hub.ToLowerInvariant();
}
