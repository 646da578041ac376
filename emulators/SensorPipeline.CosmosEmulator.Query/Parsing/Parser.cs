namespace SensorPipeline.CosmosEmulator.Query.Parsing;

/// <summary>A recursive-descent parser for the supported grammar (see the project README). Clauses here, expressions
/// in <c>Parser.Expressions.cs</c>.</summary>
internal sealed partial class Parser
{
    internal const string Grammar =
        "SELECT [VALUE] [TOP n] * | expr [AS name], … FROM <name> [[AS] alias] [WHERE expr] [ORDER BY path [ASC|DESC], …] [OFFSET m LIMIT n]";

    private static readonly string[] ClauseKeywords = ["FROM", "WHERE", "ORDER", "OFFSET", "LIMIT", "GROUP", "JOIN"];

    private readonly string _text;
    private readonly List<Token> _tokens;
    private readonly Dictionary<string, int> _parameters = new(StringComparer.Ordinal);
    private readonly List<AggregateExpr> _aggregates = [];
    private int _pos;
    private int _nesting;
    private string? _alias;
    private bool _inSelect;
    private bool _inAggregate;
    private string? _topText;
    private string? _valueText;

    private Parser(string text)
    {
        _text = text;
        _tokens = Lexer.Tokenize(text);
    }

    public static QueryModel ParseQuery(string text)
    {
        ArgumentNullException.ThrowIfNull(text);
        return new Parser(text).Query();
    }

    /// <summary>Parses a Patch filter predicate: <c>FROM alias WHERE expr</c>.</summary>
    public static (Expr Where, IReadOnlyList<string> Parameters) ParsePredicate(string text)
    {
        ArgumentNullException.ThrowIfNull(text);
        var parser = new Parser(text);
        parser.Expect("FROM", "a filter predicate has the form 'FROM c WHERE <condition>'");
        parser.FromSource();
        parser.Expect("WHERE", "a filter predicate has the form 'FROM c WHERE <condition>'");
        var where = parser.Expression();
        parser.ExpectEnd();
        return (where, parser.ParameterNames());
    }

    private QueryModel Query()
    {
        Expect("SELECT", $"a query starts with SELECT; supported: {Grammar}");
        var selectStart = _pos;
        SkipToFrom();
        var fromText = FromClause();
        var afterFrom = _pos;
        _pos = selectStart;
        var select = SelectClause();
        CheckSelectEnd(fromText);
        _pos = afterFrom;
        var (where, whereText) = WhereClause();
        if (Current.IsKeyword("GROUP"))
        {
            throw Error("GROUP BY is not supported by this emulator");
        }

        var orderBy = OrderByClause();
        var (offset, limit) = OffsetLimitClause();
        ExpectEnd();
        if (_aggregates.Count > 0 && orderBy.Count > 0)
        {
            throw new SqlQueryException("ORDER BY with an aggregate in the select list needs GROUP BY, which is not supported by this emulator.");
        }

        return new QueryModel
        {
            SelectStar = select.Star,
            ValueExpr = select.Value,
            Projections = select.Projections,
            Top = select.Top,
            Alias = _alias,
            Where = where,
            OrderBy = orderBy,
            Offset = offset,
            Limit = limit,
            Aggregates = _aggregates,
            Parameters = ParameterNames(),
            Text = new QueryText(_topText, _valueText, fromText, whereText),
        };
    }

    /// <summary>The FROM clause, read before the select list so that <c>SELECT *</c> knows the alias; its source text,
    /// or null when the query has none.</summary>
    private string? FromClause()
    {
        if (!Current.IsKeyword("FROM"))
        {
            return null;
        }

        _pos++;
        var fromStart = Current.Position;
        FromSource();
        return _text[fromStart..Current.Position].Trim();
    }

    private void CheckSelectEnd(string? fromText)
    {
        if (fromText is null && _aggregates.Count > 0)
        {
            // The evaluator aggregates over the documents a FROM reads; without one there are none (found by fuzzing).
            throw new SqlQueryException("An aggregate without FROM is not supported by this emulator: aggregate over a container (SELECT COUNT(1) FROM c).");
        }
        if (!Current.IsKeyword("FROM") && Current.Kind != TokenKind.End)
        {
            throw Error($"Syntax error: expected FROM or the end of the query but found {Current.Describe()}");
        }
    }

    private (Expr? Where, string? Text) WhereClause()
    {
        if (!Accept("WHERE"))
        {
            return (null, null);
        }

        var whereStart = Current.Position;
        var where = Expression();
        return (where, _text[whereStart..Current.Position].Trim());
    }

    private List<OrderByItem> OrderByClause()
    {
        var orderBy = new List<OrderByItem>();
        if (Accept("ORDER"))
        {
            Expect("BY", "ORDER must be followed by BY");
            do
            {
                orderBy.Add(OrderByItem());
            }
            while (AcceptSymbol(","));
        }

        return orderBy;
    }

    private (Expr? Offset, Expr? Limit) OffsetLimitClause()
    {
        if (Accept("OFFSET"))
        {
            var offset = Count("OFFSET");
            Expect("LIMIT", "OFFSET must be followed by LIMIT");
            return (offset, Count("LIMIT"));
        }

        if (Current.IsKeyword("LIMIT"))
        {
            throw Error("LIMIT needs OFFSET before it ('OFFSET 0 LIMIT n'); for the first n results use TOP n");
        }

        return (null, null);
    }

    private (bool Star, Expr? Value, List<Projection> Projections, Expr? Top) SelectClause()
    {
        if (Current.IsKeyword("DISTINCT"))
        {
            throw Error("SELECT DISTINCT is not supported by this emulator");
        }

        Expr? top = null;
        if (Accept("TOP"))
        {
            top = TopCount();
        }

        _inSelect = true;
        try
        {
            if (Accept("VALUE"))
            {
                // The service's order is TOP before VALUE; VALUE TOP n is accepted too.
                if (top is null && Accept("TOP"))
                {
                    top = TopCount();
                }

                return (false, SelectValue(), [], top);
            }

            if (AcceptSymbol("*"))
            {
                if (_alias is null)
                {
                    throw Error("'SELECT *' needs a FROM clause");
                }

                return (true, null, [], top);
            }

            return (false, null, SelectList(), top);
        }
        finally
        {
            _inSelect = false;
        }
    }

    private Expr SelectValue()
    {
        var valueStart = Current.Position;
        var value = Expression();
        _valueText = _text[valueStart..Current.Position].Trim();
        CheckAggregateUse([value]);
        return value;
    }

    private List<Projection> SelectList()
    {
        var projections = new List<Projection>();
        var unnamed = 0;
        do
        {
            var start = Current;
            var expr = Expression();
            var text = _text[start.Position..Current.Position].Trim();
            var name = ProjectionName(expr, ref unnamed);
            if (projections.Exists(p => p.Name == name))
            {
                throw SqlQueryException.At(_text, start.Position, $"Duplicate name '{name}' in the select list; give one of them another name with AS");
            }

            projections.Add(new Projection(name, expr, text));
        }
        while (AcceptSymbol(","));
        CheckAggregateUse(projections.Select(p => p.Expr));
        return projections;
    }

    private string ProjectionName(Expr expr, ref int unnamed)
    {
        if (Accept("AS"))
        {
            return Name("a name after AS");
        }

        if (Current.Kind == TokenKind.Identifier && !IsClauseKeyword(Current))
        {
            return Name("a name");
        }

        return ImplicitName(expr) ?? $"${++unnamed}";
    }

    /// <summary>FROM &lt;container name&gt; [[AS] alias]: the container name is only a name; the alias (else the name)
    /// is how expressions refer to the document.</summary>
    private void FromSource()
    {
        var name = Name("the container name after FROM");
        if (Current.IsKeyword("IN"))
        {
            throw Error("'FROM x IN …' (iterating an array) is not supported by this emulator");
        }

        _alias = name;
        if (Accept("AS"))
        {
            _alias = Name("an alias after AS");
        }
        else if (Current.Kind == TokenKind.Identifier && !IsClauseKeyword(Current))
        {
            _alias = Name("an alias");
        }

        if (Current.IsKeyword("JOIN"))
        {
            throw Error("JOIN is not supported by this emulator");
        }
    }

    /// <summary>TOP's count, its source text kept for a rewritten query.</summary>
    private Expr TopCount()
    {
        var start = Current.Position;
        var count = Count("TOP");
        _topText = _text[start..Current.Position].Trim();
        return count;
    }

    private OrderByItem OrderByItem()
    {
        var start = Current.Position;
        var path = Expression();
        if (!IsPropertyPath(path))
        {
            throw SqlQueryException.At(_text, start, "Unsupported ORDER BY item: ORDER BY takes a property path of the document such as c.ts or c[\"ts\"]");
        }

        var text = _text[start..Current.Position].Trim();
        var descending = false;
        if (Accept("DESC"))
        {
            descending = true;
        }
        else
        {
            Accept("ASC");
        }

        return new OrderByItem(path, descending, text);
    }

    private static bool IsPropertyPath(Expr expr) => expr switch
    {
        MemberExpr member => member.Target is RootExpr || IsPropertyPath(member.Target),
        IndexExpr index => index.Index is ConstantExpr && (index.Target is RootExpr || IsPropertyPath(index.Target)),
        _ => false,
    };

    /// <summary>TOP, OFFSET and LIMIT take a non-negative integer literal or a parameter (checked when it runs).</summary>
    private Expr Count(string clause)
    {
        var token = Current;
        if (token.Kind == TokenKind.Number && token.Number >= 0 && token.Number == Math.Floor(token.Number))
        {
            _pos++;
            return new ConstantExpr(Values.QValue.FromNumber(token.Number));
        }

        if (token.Kind == TokenKind.Parameter)
        {
            _pos++;
            return Parameter(token);
        }

        throw Error($"{clause} takes a non-negative integer or a parameter, found {token.Describe()}");
    }

    private static string? ImplicitName(Expr expr) => expr switch
    {
        MemberExpr member => member.Name,
        IndexExpr { Index: ConstantExpr { Value.Kind: Values.QKind.String } name } => name.Value.GetString(),
        RootExpr root => root.Alias,
        _ => null,
    };
}
