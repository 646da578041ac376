using System.Globalization;
using System.Net;
using System.Text.Json;
using Microsoft.Azure.Cosmos;
using SensorPipeline.Core.DeviceStates;
using SensorPipeline.Core.Processing;

namespace SensorPipeline.LoadGen.Verify;

/// <summary>
/// Device states reach <c>devices</c> within the handler's W after their readings, and a dead instance's only after its
/// pending-states mark expired and another instance rebuilt them. So before the device check, verify waits — on the
/// store's own signal, not a sleep — until every mark in <c>devices</c> promises all readings stored before the wait
/// began (<see cref="PendingStatesMark.StoredBeforeUnixMs"/> at or past it): live instances renew theirs every round,
/// a dead instance's stays behind until it is recovered and deleted.
/// </summary>
internal static class DeviceStatesSettled
{
    /// <summary>How long verify waits by default: W (10 s) + the mark expiry (30 s) + a recovery round (15 s), with room.</summary>
    public static readonly TimeSpan DefaultTimeout = TimeSpan.FromMinutes(2);

    /// <summary>Null once settled; otherwise what still holds states back when <paramref name="timeout"/> ran out.</summary>
    public static async Task<string?> WaitAsync(Container devices, TimeSpan timeout, TimeProvider clock, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(devices);
        ArgumentNullException.ThrowIfNull(clock);
        var since = clock.GetUtcNow().ToUnixTimeMilliseconds();
        var deadline = clock.GetUtcNow() + timeout;
        while (true)
        {
            var behind = (await MarksAsync(devices, cancellationToken)).Where(m => m.StoredBeforeUnixMs < since).ToList();
            if (behind.Count == 0)
            {
                return null;
            }

            if (clock.GetUtcNow() >= deadline)
            {
                return string.Join("; ", behind.Select(m => string.Create(CultureInfo.InvariantCulture,
                    $"pending-states mark {m.Id}: states durable only for readings stored before {DateTimeOffset.FromUnixTimeMilliseconds(m.StoredBeforeUnixMs):O}, {m.Pending} pending{(m.ClaimedBy is null ? "" : ", being recovered by " + m.ClaimedBy)}")));
            }

            await Task.Delay(TimeSpan.FromMilliseconds(250), clock, cancellationToken);
        }
    }

    private static async Task<List<PendingStatesMark>> MarksAsync(Container devices, CancellationToken cancellationToken)
    {
        var marks = new List<PendingStatesMark>();
        using var iterator = devices.GetItemQueryStreamIterator("SELECT * FROM c", requestOptions: new QueryRequestOptions { PartitionKey = new PartitionKey(PendingStatesMark.PartitionKey) });
        while (iterator.HasMoreResults)
        {
            using var page = await iterator.ReadNextAsync(cancellationToken);
            if (page.StatusCode == HttpStatusCode.NotFound)
            {
                return marks;
            }

            page.EnsureSuccessStatusCode();
            using var json = await JsonDocument.ParseAsync(page.Content, cancellationToken: cancellationToken);
            marks.AddRange(json.RootElement.GetProperty("Documents").EnumerateArray().Select(PendingStatesMark.Parse).OfType<PendingStatesMark>());
        }

        return marks;
    }
}
