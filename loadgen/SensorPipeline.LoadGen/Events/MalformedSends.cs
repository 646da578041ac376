using System.Net.Http.Headers;
using System.Text;

namespace SensorPipeline.LoadGen.Events;

/// <summary>
/// Requests an Event Hubs send endpoint must refuse, and the status it must refuse each with: a chaos run sends them
/// between good events to prove a bad request costs the sender a clear 4xx and the hub nothing.
/// </summary>
internal static class MalformedSends
{
    /// <summary>How many variants <see cref="Build"/> cycles through.</summary>
    public const int Variants = 4;

    /// <summary>One over the service's 1 MB event limit.</summary>
    public const int OversizeBodyBytes = (1024 * 1024) + 1;

    private const string BatchContentType = "application/vnd.microsoft.servicebus.json";

    /// <summary>Variant <paramref name="number"/> mod <see cref="Variants"/>: the request, whether it carries a valid token,
    /// and the statuses that count as refused correctly.</summary>
    public static (HttpContent Content, bool Authorize, int[] Expected, string Name) Build(int number)
    {
        switch (number % Variants)
        {
            case 0:
                var body = new ByteArrayContent(new byte[OversizeBodyBytes]);
                body.Headers.ContentType = new MediaTypeHeaderValue("application/octet-stream");
                return (body, true, [413], "oversize body");
            case 1:
                return (Batch("[{\"Body\":\"unterminated"), true, [400], "malformed JSON batch");
            case 2:
                // A number no double holds: the batch parser must answer 400, not fail.
                return (Batch("[{\"Body\":\"x\",\"UserProperties\":{\"n\":1e400}}]"), true, [400], "out-of-range number");
            default:
                var signed = new ByteArrayContent([0x0A, 0x00]);
                signed.Headers.ContentType = new MediaTypeHeaderValue("application/octet-stream");
                return (signed, false, [401], "forged signature");
        }
    }

    private static ByteArrayContent Batch(string json)
    {
        var content = new ByteArrayContent(Encoding.UTF8.GetBytes(json));
        content.Headers.ContentType = new MediaTypeHeaderValue(BatchContentType);
        return content;
    }
}
