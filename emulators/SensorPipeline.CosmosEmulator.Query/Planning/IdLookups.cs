using System.Buffers;
using System.Text;
using SensorPipeline.CosmosEmulator.Query.Parsing;

namespace SensorPipeline.CosmosEmulator.Query.Planning;

/// <summary>The ids and partition keys a query's WHERE clause pins, so the store reads those documents instead of
/// scanning.</summary>
internal static class IdLookups
{
    /// <summary>The ids <paramref name="model"/>'s WHERE clause pins (see <see cref="SqlQuery.FindIdLookup"/>).</summary>
    public static IdLookup? Find(QueryModel model, IReadOnlyList<KeyValuePair<string, JsonElement>> parameters, IReadOnlyList<IReadOnlyList<string>> partitionKeyPaths)
    {
        if (model.Where is null || model.Alias is null)
        {
            return null;
        }

        QValue[] values;
        try
        {
            values = ParameterBinder.Bind(model.Parameters, parameters);
        }
        catch (SqlQueryException)
        {
            return null;
        }

        var ctx = new EvalContext(values) { Root = QValue.Undefined };
        return PinnedKeys(model.Where, ctx, partitionKeyPaths, new QValue?[partitionKeyPaths.Count]) is { } keys ? new IdLookup(keys) : null;
    }

    /// <summary>The keys a conjunction pins (its own id term, else one of its disjunctions whose every branch pins
    /// some), or null. <paramref name="outerPins"/>: partition key values the enclosing conjunction pins. Either pin of
    /// a path serves when both do: a document matching the branch satisfies both.</summary>
    private static List<IdKey>? PinnedKeys(Expr conjunction, EvalContext ctx, IReadOnlyList<IReadOnlyList<string>> keyPaths, QValue?[] outerPins)
    {
        var terms = DocumentPaths.Flatten<AndExpr>(conjunction);
        var pins = (QValue?[])outerPins.Clone();
        foreach (var term in terms)
        {
            if (PartitionKeyPin(term, ctx, keyPaths) is var (index, value))
            {
                pins[index] = value;
            }
        }

        foreach (var term in terms)
        {
            if (PinnedIds(term, ctx) is { } ids)
            {
                return [.. ids.Select(id => new IdKey(id, PartitionKeyJson(pins, keyPaths, id)))];
            }
        }

        foreach (var term in terms)
        {
            if (term is OrExpr && Branches(term, ctx, keyPaths, pins) is { } keys)
            {
                return keys;
            }
        }

        return null;
    }

    private static List<IdKey>? Branches(Expr disjunction, EvalContext ctx, IReadOnlyList<IReadOnlyList<string>> keyPaths, QValue?[] pins)
    {
        var keys = new List<IdKey>();
        foreach (var branch in DocumentPaths.Flatten<OrExpr>(disjunction))
        {
            if (PinnedKeys(branch, ctx, keyPaths, pins) is not { } branchKeys)
            {
                return null;
            }

            keys.AddRange(branchKeys);
        }

        return keys;
    }

    /// <summary>The ids of <c>c.id = v</c>, <c>v = c.id</c> or <c>c.id IN (…)</c>: the string values among v (ids are
    /// strings, so any other value matches nothing); null when the term is not one of these.</summary>
    private static List<string>? PinnedIds(Expr term, EvalContext ctx)
    {
        switch (term)
        {
            case BinaryExpr { Op: BinaryOp.Equal } equal when EqualsOnPath(equal, ctx, IsId) is { } value:
                return value.Kind == QKind.String ? [value.GetString()] : [];
            case InExpr { Negated: false } test when IsId(DocumentPaths.Of(test.Value)) && test.Items.All(IsValue):
                return [.. test.Items.Select(item => item.Eval(ctx)).Where(static v => v.Kind == QKind.String).Select(static v => v.GetString())];
            default:
                return null;
        }
    }

    /// <summary>Which partition key path the term equates with a string, boolean or null, and that value. Numbers are left
    /// out: 0 and -0 are equal but keyed apart.</summary>
    private static (int Index, QValue Value)? PartitionKeyPin(Expr term, EvalContext ctx, IReadOnlyList<IReadOnlyList<string>> keyPaths)
    {
        if (term is not BinaryExpr { Op: BinaryOp.Equal } equal)
        {
            return null;
        }

        for (var i = 0; i < keyPaths.Count; i++)
        {
            var keyPath = keyPaths[i];
            if (EqualsOnPath(equal, ctx, path => path is not null && path.SequenceEqual(keyPath, StringComparer.Ordinal)) is { Kind: QKind.String or QKind.Boolean or QKind.Null } value)
            {
                return (i, value);
            }
        }

        return null;
    }

    /// <summary>The value a document path chosen by <paramref name="isPath"/> is equated with, when the other side is a
    /// constant or a parameter.</summary>
    private static QValue? EqualsOnPath(BinaryExpr equal, EvalContext ctx, Func<List<string>?, bool> isPath)
    {
        if (isPath(DocumentPaths.Of(equal.Left)) && IsValue(equal.Right))
        {
            return equal.Right.Eval(ctx);
        }

        return isPath(DocumentPaths.Of(equal.Right)) && IsValue(equal.Left) ? equal.Left.Eval(ctx) : null;
    }

    private static bool IsId(List<string>? path) => path is ["id"];

    private static bool IsValue(Expr expr) => expr is ConstantExpr or ParameterExpr;

    /// <summary>The partition key a key's document must have: the pinned values, and the id itself for a path
    /// <c>/id</c>; null when a path is not pinned, or a pinned string is not valid UTF-16 (no JSON can carry it).</summary>
    private static string? PartitionKeyJson(QValue?[] pins, IReadOnlyList<IReadOnlyList<string>> keyPaths, string id)
    {
        if (pins.Length == 0)
        {
            return null;
        }

        var buffer = new ArrayBufferWriter<byte>(64);
        try
        {
            using var writer = new Utf8JsonWriter(buffer);
            writer.WriteStartArray();
            for (var i = 0; i < pins.Length; i++)
            {
                if (keyPaths[i] is ["id"])
                {
                    writer.WriteStringValue(id);
                }
                else if (pins[i] is { } pin)
                {
                    pin.WriteTo(writer);
                }
                else
                {
                    return null;
                }
            }

            writer.WriteEndArray();
        }
        catch (ArgumentException)
        {
            return null;
        }

        return Encoding.UTF8.GetString(buffer.WrittenSpan);
    }
}
