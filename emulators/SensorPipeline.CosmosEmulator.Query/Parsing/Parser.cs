namespace SensorPipeline.CosmosEmulator.Query.Parsing;

/// <summary>A recursive-descent parser for the supported grammar (see the project README): the clauses, each in its
/// turn; the expressions in them are read by <see cref="ExpressionParser"/>, over the one <see cref="TokenCursor"/>.</summary>
internal sealed class Parser
{
    internal const string Grammar =
        "SELECT [VALUE] [TOP n] * | expr [AS name], … FROM <name> [[AS] alias] [WHERE expr] [ORDER BY path [ASC|DESC], …] [OFFSET m LIMIT n]";

    private static readonly string[] ClauseKeywords = ["FROM", "WHERE", "ORDER", "OFFSET", "LIMIT", "GROUP", "JOIN"];

    private readonly TokenCursor _cursor;
    private readonly ExpressionParser _expressions;
    private readonly TermParser _terms;
    private string? _topText;
    private string? _valueText;

    private Parser(string text)
    {
        _cursor = new TokenCursor(text);
        _expressions = new ExpressionParser(_cursor);
        _terms = _expressions.Terms;
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
        parser._cursor.Expect("FROM", "a filter predicate has the form 'FROM c WHERE <condition>'");
        parser.FromSource();
        parser._cursor.Expect("WHERE", "a filter predicate has the form 'FROM c WHERE <condition>'");
        var where = parser._expressions.Expression();
        parser.ExpectEnd();
        return (where, parser._terms.ParameterNames());
    }

    private QueryModel Query()
    {
        _cursor.Expect("SELECT", $"a query starts with SELECT; supported: {Grammar}");
        var selectStart = _cursor.Index;
        SkipToFrom();
        var fromText = FromClause();
        var afterFrom = _cursor.Index;
        _cursor.Index = selectStart;
        var select = SelectClause();
        CheckSelectEnd(fromText);
        _cursor.Index = afterFrom;
        var (where, whereText) = WhereClause();
        if (_cursor.Current.IsKeyword("GROUP"))
        {
            throw _cursor.Error("GROUP BY is not supported by this emulator");
        }

        var orderBy = OrderByClause();
        var (offset, limit) = OffsetLimitClause();
        ExpectEnd();
        if (_terms.Aggregates.Count > 0 && orderBy.Count > 0)
        {
            throw new SqlQueryException("ORDER BY with an aggregate in the select list needs GROUP BY, which is not supported by this emulator.");
        }

        return new QueryModel
        {
            SelectStar = select.Star,
            ValueExpr = select.Value,
            Projections = select.Projections,
            Top = select.Top,
            Alias = _terms.Alias,
            Where = where,
            OrderBy = orderBy,
            Offset = offset,
            Limit = limit,
            Aggregates = _terms.Aggregates,
            Parameters = _terms.ParameterNames(),
            Text = new QueryText(_topText, _valueText, fromText, whereText),
        };
    }

    /// <summary>The FROM clause, read before the select list so that <c>SELECT *</c> knows the alias; its source text,
    /// or null when the query has none.</summary>
    private string? FromClause()
    {
        if (!_cursor.Current.IsKeyword("FROM"))
        {
            return null;
        }

        _cursor.Advance();
        var fromStart = _cursor.Current.Position;
        FromSource();
        return _cursor.Text[fromStart.._cursor.Current.Position].Trim();
    }

    private void CheckSelectEnd(string? fromText)
    {
        if (fromText is null && _terms.Aggregates.Count > 0)
        {
            // The evaluator aggregates over the documents a FROM reads; without one there are none (found by fuzzing).
            throw new SqlQueryException("An aggregate without FROM is not supported by this emulator: aggregate over a container (SELECT COUNT(1) FROM c).");
        }
        if (!_cursor.Current.IsKeyword("FROM") && _cursor.Current.Kind != TokenKind.End)
        {
            throw _cursor.Error($"Syntax error: expected FROM or the end of the query but found {_cursor.Current.Describe()}");
        }
    }

    private (Expr? Where, string? Text) WhereClause()
    {
        if (!_cursor.Accept("WHERE"))
        {
            return (null, null);
        }

        var whereStart = _cursor.Current.Position;
        var where = _expressions.Expression();
        return (where, _cursor.Text[whereStart.._cursor.Current.Position].Trim());
    }

    private List<OrderByItem> OrderByClause()
    {
        var orderBy = new List<OrderByItem>();
        if (_cursor.Accept("ORDER"))
        {
            _cursor.Expect("BY", "ORDER must be followed by BY");
            do
            {
                orderBy.Add(OrderByItem());
            }
            while (_cursor.AcceptSymbol(","));
        }

        return orderBy;
    }

    private (Expr? Offset, Expr? Limit) OffsetLimitClause()
    {
        if (_cursor.Accept("OFFSET"))
        {
            var offset = Count("OFFSET");
            _cursor.Expect("LIMIT", "OFFSET must be followed by LIMIT");
            return (offset, Count("LIMIT"));
        }

        if (_cursor.Current.IsKeyword("LIMIT"))
        {
            throw _cursor.Error("LIMIT needs OFFSET before it ('OFFSET 0 LIMIT n'); for the first n results use TOP n");
        }

        return (null, null);
    }

    private (bool Star, Expr? Value, List<Projection> Projections, Expr? Top) SelectClause()
    {
        if (_cursor.Current.IsKeyword("DISTINCT"))
        {
            throw _cursor.Error("SELECT DISTINCT is not supported by this emulator");
        }

        Expr? top = null;
        if (_cursor.Accept("TOP"))
        {
            top = TopCount();
        }

        _terms.InSelect = true;
        try
        {
            if (_cursor.Accept("VALUE"))
            {
                // The service's order is TOP before VALUE; VALUE TOP n is accepted too.
                if (top is null && _cursor.Accept("TOP"))
                {
                    top = TopCount();
                }

                return (false, SelectValue(), [], top);
            }

            if (_cursor.AcceptSymbol("*"))
            {
                if (_terms.Alias is null)
                {
                    throw _cursor.Error("'SELECT *' needs a FROM clause");
                }

                return (true, null, [], top);
            }

            return (false, null, SelectList(), top);
        }
        finally
        {
            _terms.InSelect = false;
        }
    }

    private Expr SelectValue()
    {
        var valueStart = _cursor.Current.Position;
        var value = _expressions.Expression();
        _valueText = _cursor.Text[valueStart.._cursor.Current.Position].Trim();
        _terms.CheckAggregateUse([value]);
        return value;
    }

    private List<Projection> SelectList()
    {
        var projections = new List<Projection>();
        var unnamed = 0;
        do
        {
            var start = _cursor.Current;
            var expr = _expressions.Expression();
            var text = _cursor.Text[start.Position.._cursor.Current.Position].Trim();
            var name = ProjectionName(expr, ref unnamed);
            if (projections.Exists(p => p.Name == name))
            {
                throw SqlQueryException.At(_cursor.Text, start.Position, $"Duplicate name '{name}' in the select list; give one of them another name with AS");
            }

            projections.Add(new Projection(name, expr, text));
        }
        while (_cursor.AcceptSymbol(","));
        _terms.CheckAggregateUse(projections.Select(p => p.Expr));
        return projections;
    }

    private string ProjectionName(Expr expr, ref int unnamed)
    {
        if (_cursor.Accept("AS"))
        {
            return _cursor.Name("a name after AS");
        }

        if (_cursor.Current.Kind == TokenKind.Identifier && !IsClauseKeyword(_cursor.Current))
        {
            return _cursor.Name("a name");
        }

        return ImplicitName(expr) ?? $"${++unnamed}";
    }

    /// <summary>FROM &lt;container name&gt; [[AS] alias]: the container name is only a name; the alias (else the name)
    /// is how expressions refer to the document.</summary>
    private void FromSource()
    {
        var name = _cursor.Name("the container name after FROM");
        if (_cursor.Current.IsKeyword("IN"))
        {
            throw _cursor.Error("'FROM x IN …' (iterating an array) is not supported by this emulator");
        }

        _terms.Alias = name;
        if (_cursor.Accept("AS"))
        {
            _terms.Alias = _cursor.Name("an alias after AS");
        }
        else if (_cursor.Current.Kind == TokenKind.Identifier && !IsClauseKeyword(_cursor.Current))
        {
            _terms.Alias = _cursor.Name("an alias");
        }

        if (_cursor.Current.IsKeyword("JOIN"))
        {
            throw _cursor.Error("JOIN is not supported by this emulator");
        }
    }

    /// <summary>TOP's count, its source text kept for a rewritten query.</summary>
    private Expr TopCount()
    {
        var start = _cursor.Current.Position;
        var count = Count("TOP");
        _topText = _cursor.Text[start.._cursor.Current.Position].Trim();
        return count;
    }

    private OrderByItem OrderByItem()
    {
        var start = _cursor.Current.Position;
        var path = _expressions.Expression();
        if (!IsPropertyPath(path))
        {
            throw SqlQueryException.At(_cursor.Text, start, "Unsupported ORDER BY item: ORDER BY takes a property path of the document such as c.ts or c[\"ts\"]");
        }

        var text = _cursor.Text[start.._cursor.Current.Position].Trim();
        var descending = false;
        if (_cursor.Accept("DESC"))
        {
            descending = true;
        }
        else
        {
            _cursor.Accept("ASC");
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
        var token = _cursor.Current;
        if (token.Kind == TokenKind.Number && token.Number >= 0 && token.Number == Math.Floor(token.Number))
        {
            _cursor.Advance();
            return new ConstantExpr(Values.QValue.FromNumber(token.Number));
        }

        if (token.Kind == TokenKind.Parameter)
        {
            _cursor.Advance();
            return _terms.Parameter(token);
        }

        throw _cursor.Error($"{clause} takes a non-negative integer or a parameter, found {token.Describe()}");
    }

    private static string? ImplicitName(Expr expr) => expr switch
    {
        MemberExpr member => member.Name,
        IndexExpr { Index: ConstantExpr { Value.Kind: Values.QKind.String } name } => name.Value.GetString(),
        RootExpr root => root.Alias,
        _ => null,
    };

    /// <summary>Moves to the FROM of this query: the first FROM keyword outside brackets that is not a property name.</summary>
    private void SkipToFrom()
    {
        var depth = 0;
        while (_cursor.Current.Kind != TokenKind.End)
        {
            var token = _cursor.Current;
            if (token.Kind == TokenKind.Symbol && token.Text is "(" or "[" or "{")
            {
                depth++;
            }
            else if (token.Kind == TokenKind.Symbol && token.Text is ")" or "]" or "}")
            {
                depth--;
            }
            else if (depth == 0 && token.IsKeyword("FROM") && !(_cursor.Index > 0 && _cursor.Peek(-1).IsSymbol(".")))
            {
                return;
            }

            _cursor.Advance();
        }
    }

    private static bool IsClauseKeyword(Token token) => Array.Exists(ClauseKeywords, token.IsKeyword);

    private void ExpectEnd()
    {
        if (_cursor.Current.Kind == TokenKind.End)
        {
            return;
        }

        if (_cursor.Current.IsKeyword("GROUP"))
        {
            throw _cursor.Error("GROUP BY is not supported by this emulator");
        }

        throw _cursor.Error($"Syntax error: unexpected {_cursor.Current.Describe()}; supported: {Grammar}");
    }
}
