using System.Buffers;

namespace SensorPipeline.Functions.Storage;

/// <summary>Parses a JSON answer held in a pooled buffer.</summary>
/// <typeparam name="T">What the parse returns.</typeparam>
/// <param name="json">The whole answer.</param>
internal delegate T Utf8Parse<out T>(ReadOnlySpan<byte> json);

/// <summary>Reads a store answer's content into a pooled buffer (grown by doubling) and parses it there, no DOM, no copy kept.</summary>
internal static class ResponseContent
{
    public static async Task<T> ParseAsync<T>(Stream? content, T whenAbsent, Utf8Parse<T> parse, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(parse);
        if (content is null)
        {
            return whenAbsent;
        }

        var buffer = ArrayPool<byte>.Shared.Rent(4096);
        try
        {
            var length = 0;
            int read;
            while ((read = await content.ReadAsync(buffer.AsMemory(length), cancellationToken)) > 0)
            {
                length += read;
                if (length == buffer.Length)
                {
                    var larger = ArrayPool<byte>.Shared.Rent(buffer.Length * 2);
                    buffer.AsSpan(0, length).CopyTo(larger);
                    ArrayPool<byte>.Shared.Return(buffer);
                    buffer = larger;
                }
            }

            return parse(buffer.AsSpan(0, length));
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(buffer);
        }
    }
}
