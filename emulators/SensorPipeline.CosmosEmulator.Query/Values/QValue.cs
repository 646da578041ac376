namespace SensorPipeline.CosmosEmulator.Query.Values;

/// <summary>The JSON types of the query language plus <see cref="Undefined"/>, in Cosmos DB's cross-type sort order
/// (undefined, null, boolean, number, string, array, object).</summary>
internal enum QKind : byte
{
    Undefined = 0,
    Null = 1,
    Boolean = 2,
    Number = 3,
    String = 4,
    Array = 5,
    Object = 6,
}

/// <summary>One value during evaluation. Values read from a document stay a view on its <see cref="JsonElement"/>
/// (no copy, original number text kept); values the query builds hold their parts directly.</summary>
internal readonly struct QValue
{
    public static readonly QValue Undefined;
    public static readonly QValue Null = new(QKind.Null, 0, null, default);
    public static readonly QValue True = new(QKind.Boolean, 1, null, default);
    public static readonly QValue False = new(QKind.Boolean, 0, null, default);

    private readonly double _number;
    private readonly object? _ref; // string, QValue[] (array) or KeyValuePair<string, QValue>[] (object)
    private readonly JsonElement _element;

    private QValue(QKind kind, double number, object? reference, JsonElement element)
    {
        Kind = kind;
        _number = number;
        _ref = reference;
        _element = element;
    }

    public QKind Kind { get; }

    public bool IsUndefined => Kind == QKind.Undefined;

    /// <summary>True when this value is a view on a parsed JSON element (a document, a parameter).</summary>
    public bool HasElement => _element.ValueKind != JsonValueKind.Undefined;

    public JsonElement Element => _element;

    public double Number => _number;

    public bool Boolean => _number != 0;

    public static QValue FromBool(bool value) => value ? True : False;

    public static QValue FromNumber(double value) => new(QKind.Number, value, null, default);

    public static QValue FromString(string value) => new(QKind.String, 0, value, default);

    public static QValue FromArray(QValue[] items) => new(QKind.Array, 0, items, default);

    public static QValue FromObject(KeyValuePair<string, QValue>[] properties) => new(QKind.Object, 0, properties, default);

    public static QValue FromElement(JsonElement element) => element.ValueKind switch
    {
        JsonValueKind.Null => new(QKind.Null, 0, null, element),
        JsonValueKind.True => new(QKind.Boolean, 1, null, element),
        JsonValueKind.False => new(QKind.Boolean, 0, null, element),
        JsonValueKind.Number => new(QKind.Number, element.GetDouble(), null, element),
        JsonValueKind.String => new(QKind.String, 0, null, element),
        JsonValueKind.Array => new(QKind.Array, 0, null, element),
        JsonValueKind.Object => new(QKind.Object, 0, null, element),
        _ => Undefined,
    };

    /// <summary>The string of a <see cref="QKind.String"/> value (materialised from the document on demand).</summary>
    public string GetString() => _ref as string ?? _element.GetString() ?? string.Empty;

    /// <summary>True for a string value equal (ordinally) to <paramref name="text"/>; compares a document's string in
    /// place, without materialising it.</summary>
    public bool StringEquals(string text) =>
        Kind == QKind.String && (HasElement ? _element.ValueEquals(text) : string.Equals((string)_ref!, text, StringComparison.Ordinal));

    public int ArrayLength => _ref is QValue[] items ? items.Length : _element.GetArrayLength();

    public QValue ArrayItem(int index)
    {
        if (_ref is QValue[] items)
        {
            return (uint)index < (uint)items.Length ? items[index] : Undefined;
        }

        return (uint)index < (uint)_element.GetArrayLength() ? FromElement(_element[index]) : Undefined;
    }

    public QValue Property(string name)
    {
        if (Kind != QKind.Object)
        {
            return Undefined;
        }

        if (_ref is KeyValuePair<string, QValue>[] properties)
        {
            foreach (var property in properties)
            {
                if (string.Equals(property.Key, name, StringComparison.Ordinal))
                {
                    return property.Value;
                }
            }

            return Undefined;
        }

        return _element.TryGetProperty(name, out var value) ? FromElement(value) : Undefined;
    }

    /// <summary>The properties of an object value, in document order.</summary>
    public IEnumerable<KeyValuePair<string, QValue>> Properties()
    {
        if (_ref is KeyValuePair<string, QValue>[] properties)
        {
            foreach (var property in properties)
            {
                yield return property;
            }

            yield break;
        }

        foreach (var property in _element.EnumerateObject())
        {
            yield return new(property.Name, FromElement(property.Value));
        }
    }

    public int PropertyCount => _ref is KeyValuePair<string, QValue>[] properties
        ? properties.Length
        : _element.GetPropertyCount();

    /// <summary>Writes the value as JSON; an undefined value must not be written (callers omit it).</summary>
    public void WriteTo(Utf8JsonWriter writer)
    {
        if (HasElement)
        {
            _element.WriteTo(writer);
            return;
        }

        switch (Kind)
        {
            case QKind.Null:
                writer.WriteNullValue();
                break;
            case QKind.Boolean:
                writer.WriteBooleanValue(Boolean);
                break;
            case QKind.Number:
                WriteNumber(writer, _number);
                break;
            case QKind.String:
                writer.WriteStringValue((string)_ref!);
                break;
            case QKind.Array:
                writer.WriteStartArray();
                foreach (var item in (QValue[])_ref!)
                {
                    // An undefined array element is written as nothing in Cosmos DB: the array is shorter.
                    if (!item.IsUndefined)
                    {
                        item.WriteTo(writer);
                    }
                }

                writer.WriteEndArray();
                break;
            case QKind.Object:
                writer.WriteStartObject();
                foreach (var property in (KeyValuePair<string, QValue>[])_ref!)
                {
                    if (!property.Value.IsUndefined)
                    {
                        writer.WritePropertyName(property.Key);
                        property.Value.WriteTo(writer);
                    }
                }

                writer.WriteEndObject();
                break;
            default:
                throw new InvalidOperationException("An undefined value has no JSON form.");
        }
    }

    private static void WriteNumber(Utf8JsonWriter writer, double value)
    {
        // Integral results (COUNT, SUM of integers) are written without a fraction, as the service does.
        if (value == Math.Floor(value) && Math.Abs(value) < 9.007199254740992E15)
        {
            writer.WriteNumberValue((long)value);
        }
        else if (double.IsFinite(value))
        {
            writer.WriteNumberValue(value);
        }
        else
        {
            // JSON has no NaN or infinity; the service yields undefined for such arithmetic, callers check first.
            writer.WriteNullValue();
        }
    }
}
