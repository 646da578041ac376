using SensorPipeline.CosmosEmulator.Query.Parsing;

namespace SensorPipeline.CosmosEmulator.Query;

/// <summary>A Patch filter predicate (<c>FROM c WHERE …</c>), parsed once and safe to share between threads.</summary>
public sealed class SqlPredicate
{
    private readonly Expr _where;
    private readonly IReadOnlyList<string> _parameters;

    private SqlPredicate(Expr where, IReadOnlyList<string> parameters)
    {
        _where = where;
        _parameters = parameters;
    }

    /// <summary>Parses <c>FROM alias WHERE condition</c>; property names keep their case.</summary>
    /// <exception cref="SqlQueryException">The text is not a supported predicate.</exception>
    public static SqlPredicate Parse(string text)
    {
        var (where, parameters) = Parser.ParsePredicate(text);
        return new SqlPredicate(where, parameters);
    }

    /// <summary>True when the condition is true for the document; false when it is false or undefined.</summary>
    /// <exception cref="SqlQueryException">A parameter the predicate uses has no value.</exception>
    /// <exception cref="JsonException">The document is not JSON.</exception>
    public bool Matches(ReadOnlyMemory<byte> document, IReadOnlyList<KeyValuePair<string, JsonElement>> parameters)
    {
        var ctx = new EvalContext(ParameterBinder.Bind(_parameters, parameters));
        using var parsed = JsonDocument.Parse(document);
        ctx.Root = QValue.FromElement(parsed.RootElement);
        return _where.Eval(ctx) is { Kind: QKind.Boolean, Boolean: true };
    }
}
