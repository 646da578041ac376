using SensorPipeline.Functions.Invocation;

namespace SensorPipeline.Fuzz.Targets;

/// <summary>
/// A Functions host request body through the handler's streaming parser (<see cref="InvocationRequestReader"/>,
/// RequestStreamParser, the trigger-array reader and metadata readers), twice: whole, and streamed in 7-byte reads so
/// every token can cross a read boundary and the read window must move and grow. Both must agree.
/// </summary>
internal static class HandlerRequestTarget
{
    /// <summary>The trigger binding's name in every function.json of the Function App.</summary>
    private const string Trigger = "events";

    internal static void Run(byte[] body)
    {
        string? whole;
        try
        {
            using var request = InvocationRequestReader.Parse(body, Trigger);
            whole = Describe(request);
        }
        catch (InvalidInvocationException)
        {
            whole = null;
        }

        using var stream = new TrickleStream(body, 7);
        string? streamed;
        try
        {
            using var request = InvocationRequestReader.ReadAsync(stream, Trigger, CancellationToken.None).GetAwaiter().GetResult();
            streamed = Describe(request);
        }
        catch (InvalidInvocationException) when (whole is null)
        {
            throw; // refused both ways: the documented answer (400)
        }

        if (whole != streamed)
        {
            throw new InvariantException($"parsed whole: {whole ?? "refused"}; streamed: {streamed}");
        }
    }

    private static string Describe(InvocationRequest request) =>
        $"partition {request.PartitionId}, retry {request.RetryCount}, events [{string.Join(",", request.Events.Select(e => $"{e.Position.SequenceNumber}@{e.Position.EnqueuedTimeUnixMs}:{Convert.ToHexString(e.Body.Span)}"))}]";

    /// <summary>A stream that hands out at most <c>chunk</c> bytes per read, as a socket may.</summary>
    private sealed class TrickleStream(byte[] data, int chunk) : MemoryStream(data, writable: false)
    {
        public override int Read(byte[] buffer, int offset, int count) => base.Read(buffer, offset, Math.Min(count, chunk));

        public override int Read(Span<byte> buffer) => base.Read(buffer[..Math.Min(buffer.Length, chunk)]);

        public override ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default) =>
            base.ReadAsync(buffer[..Math.Min(buffer.Length, chunk)], cancellationToken);
    }
}
