namespace SensorPipeline.CosmosEmulator.Query.Values;

/// <summary>Equality and ordering with the service's semantics: comparing values of different types is undefined
/// (never true, never false), objects and arrays compare for equality only, strings compare ordinally.</summary>
internal static class QCompare
{
    /// <summary>The result of <c>a = b</c>: undefined across types or when either side is undefined.</summary>
    public static QValue EqualsOperator(in QValue a, in QValue b)
    {
        if (a.IsUndefined || b.IsUndefined || a.Kind != b.Kind)
        {
            return QValue.Undefined;
        }

        return QValue.FromBool(DeepEquals(a, b));
    }

    /// <summary>The result of a relational operator (<c>&lt; &lt;= &gt; &gt;=</c>) on two values: a signed
    /// comparison for two numbers, two strings, two booleans or two nulls, otherwise null (undefined).</summary>
    public static int? Relational(in QValue a, in QValue b)
    {
        if (a.Kind != b.Kind)
        {
            return null;
        }

        return a.Kind switch
        {
            QKind.Null => 0,
            QKind.Boolean => a.Boolean.CompareTo(b.Boolean),
            QKind.Number => a.Number.CompareTo(b.Number),
            QKind.String => string.CompareOrdinal(a.GetString(), b.GetString()),
            _ => null,
        };
    }

    public static bool DeepEquals(in QValue a, in QValue b)
    {
        if (a.Kind != b.Kind)
        {
            return false;
        }

        switch (a.Kind)
        {
            case QKind.Undefined:
            case QKind.Null:
                return true;
            case QKind.Boolean:
                return a.Boolean == b.Boolean;
            case QKind.Number:
                return a.Number == b.Number;
            case QKind.String:
                // Compare in place on whichever side is a document string: only the other side is materialised.
                return b.HasElement ? b.StringEquals(a.GetString()) : a.StringEquals(b.GetString());
            case QKind.Array:
                var length = a.ArrayLength;
                if (length != b.ArrayLength)
                {
                    return false;
                }

                for (var i = 0; i < length; i++)
                {
                    if (!DeepEquals(a.ArrayItem(i), b.ArrayItem(i)))
                    {
                        return false;
                    }
                }

                return true;
            case QKind.Object:
                if (a.PropertyCount != b.PropertyCount)
                {
                    return false;
                }

                foreach (var property in a.Properties())
                {
                    if (!DeepEquals(property.Value, b.Property(property.Key)))
                    {
                        return false;
                    }
                }

                return true;
            default:
                return false;
        }
    }
}
