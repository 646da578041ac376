using System.Text.Json;
using Microsoft.Azure.Cosmos;
using SensorPipeline.Core.Processing;
using SensorPipeline.Toolkit;

namespace SensorPipeline.EndToEnd.Tests;

/// <summary>
/// Device states reach <c>devices</c> within the handler's W after their readings. Before a test reads them it waits on
/// the store's own signal: every processor instance's pending-states mark promises all readings stored before the wait
/// began (the same signal <c>loadgen verify</c> waits on before its device check).
/// </summary>
internal static class DeviceStatesDurable
{
    public static async Task WaitAsync(Container devices, CancellationToken cancellationToken)
    {
        var since = DateTimeOffset.UtcNow.ToUnixTimeMilliseconds();
        await Eventually.ValueAsync(
            async token =>
            {
                var behind = 0;
                using var iterator = devices.GetItemQueryStreamIterator("SELECT * FROM c",
                    requestOptions: new QueryRequestOptions { PartitionKey = new PartitionKey(PendingStatesMark.PartitionKey) });
                while (iterator.HasMoreResults)
                {
                    using var page = await iterator.ReadNextAsync(token);
                    page.EnsureSuccessStatusCode();
                    using var json = await JsonDocument.ParseAsync(page.Content, cancellationToken: token);
                    behind += json.RootElement.GetProperty("Documents").EnumerateArray()
                        .Select(PendingStatesMark.Parse).Count(mark => mark is not null && mark.StoredBeforeUnixMs < since);
                }

                return behind;
            },
            behind => behind == 0, "every pending-states mark to cover the readings stored before the wait",
            TimeSpan.FromMinutes(2), TimeSpan.FromMilliseconds(250), cancellationToken: cancellationToken);
    }
}
