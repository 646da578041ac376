using System.Text.Json;

namespace SensorPipeline.Functions.Tests.Infrastructure;

/// <summary>What the handler says about itself on its status routes, in either form (process or in-process).</summary>
internal static class HandlerStatus
{
    /// <summary>
    /// Waits until every reading this handler stored before the call has its device state durable — its
    /// <c>/status/device-states</c> says so: nothing pending from before — the signal to read <c>devices</c> on.
    /// </summary>
    public static async Task DeviceStatesDurableAsync(this IHandlerUnderTest handler, TimeSpan? timeout = null)
    {
        var since = DateTimeOffset.UtcNow.ToUnixTimeMilliseconds();
        await Eventually.ValueAsync(
            token => handler.Http.GetStringAsync(new Uri("/status/device-states", UriKind.Relative), token),
            status =>
            {
                using var json = JsonDocument.Parse(status);
                return json.RootElement.GetProperty("storedBeforeUnixMs").GetInt64() >= since;
            },
            "every device state of a reading stored before the wait to be durable",
            timeout ?? TimeSpan.FromSeconds(30), poll: TimeSpan.FromMilliseconds(20)).ConfigureAwait(false);
    }
}
