using System.Buffers;
using System.Text;

namespace SensorPipeline.CosmosEmulator.Query.Values;

/// <summary>A value copied out of its document so it can be ordered after the document is released. Orders across
/// types as the service documents for ORDER BY (undefined &lt; null &lt; false &lt; true &lt; numbers &lt; strings
/// &lt; arrays &lt; objects); strings ordinally; two arrays or two objects by their JSON text (the service orders them
/// by a hash, so their relative order is not meaningful either way).</summary>
internal readonly struct SortKey : IComparable<SortKey>
{
    private readonly QKind _kind;
    private readonly double _number;
    private readonly string? _text;

    private SortKey(QKind kind, double number, string? text)
    {
        _kind = kind;
        _number = number;
        _text = text;
    }

    public static SortKey From(in QValue value) => value.Kind switch
    {
        QKind.Boolean => new(QKind.Boolean, value.Boolean ? 1 : 0, null),
        QKind.Number => new(QKind.Number, value.Number, null),
        QKind.String => new(QKind.String, 0, value.GetString()),
        QKind.Array or QKind.Object => new(value.Kind, 0, ToJson(value)),
        _ => new(value.Kind, 0, null),
    };

    public int CompareTo(SortKey other)
    {
        if (_kind != other._kind)
        {
            return _kind.CompareTo(other._kind);
        }

        return _kind switch
        {
            QKind.Boolean or QKind.Number => _number.CompareTo(other._number),
            QKind.String or QKind.Array or QKind.Object => string.CompareOrdinal(_text, other._text),
            _ => 0,
        };
    }

    /// <summary>The value again, for MIN and MAX (which only keep primitives).</summary>
    public QValue ToValue() => _kind switch
    {
        QKind.Null => QValue.Null,
        QKind.Boolean => QValue.FromBool(_number != 0),
        QKind.Number => QValue.FromNumber(_number),
        QKind.String => QValue.FromString(_text!),
        _ => QValue.Undefined,
    };

    private static string ToJson(in QValue value)
    {
        var buffer = new ArrayBufferWriter<byte>();
        using (var writer = new Utf8JsonWriter(buffer))
        {
            value.WriteTo(writer);
        }

        return Encoding.UTF8.GetString(buffer.WrittenSpan);
    }
}
