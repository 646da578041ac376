using System.Collections;
using System.Diagnostics.CodeAnalysis;

namespace SensorPipeline.EventHubs.Storage;

/// <summary>Application properties left encoded until first used, so a reader that only looks at bodies
/// allocates nothing for them beyond this wrapper.</summary>
internal sealed class EncodedProperties(ReadOnlyMemory<byte> encoded) : IReadOnlyDictionary<string, object?>
{
    public static readonly IReadOnlyDictionary<string, object?> Empty = new Dictionary<string, object?>(0);

    private Dictionary<string, object?>? _decoded;

    private Dictionary<string, object?> Decoded
    {
        get
        {
            var decoded = Volatile.Read(ref _decoded);
            if (decoded is null)
            {
                // Two readers may decode at once; both results are equal, the first published wins.
                decoded = PropertyCodec.Read(encoded.Span);
                decoded = Interlocked.CompareExchange(ref _decoded, decoded, null) ?? decoded;
            }

            return decoded;
        }
    }

    public object? this[string key] => Decoded[key];

    public IEnumerable<string> Keys => Decoded.Keys;

    public IEnumerable<object?> Values => Decoded.Values;

    public int Count => Decoded.Count;

    public bool ContainsKey(string key) => Decoded.ContainsKey(key);

    public bool TryGetValue(string key, [MaybeNullWhen(false)] out object? value) => Decoded.TryGetValue(key, out value);

    public IEnumerator<KeyValuePair<string, object?>> GetEnumerator() => Decoded.GetEnumerator();

    IEnumerator IEnumerable.GetEnumerator() => GetEnumerator();
}
