namespace SensorPipeline.CosmosEmulator.Query.Parsing;

/// <summary>The terms of an expression: literals, parameters, the FROM alias, function and aggregate calls. It owns what
/// the terms declare: the parameters by slot and the aggregates of the select list.</summary>
internal sealed class TermParser(TokenCursor cursor, ExpressionParser expressions)
{
    private static readonly Dictionary<string, AggregateKind> AggregateNames = new(StringComparer.OrdinalIgnoreCase)
    {
        ["COUNT"] = AggregateKind.Count,
        ["SUM"] = AggregateKind.Sum,
        ["MIN"] = AggregateKind.Min,
        ["MAX"] = AggregateKind.Max,
        ["AVG"] = AggregateKind.Average,
    };

    private readonly Dictionary<string, int> _parameters = new(StringComparer.Ordinal);

    private readonly List<AggregateExpr> _aggregates = [];
    private bool _inAggregate;

    /// <summary>The FROM alias the terms resolve the document by; null for a query without FROM.</summary>
    public string? Alias { get; set; }

    /// <summary>Whether the select list is being read: aggregates are allowed only there.</summary>
    public bool InSelect { get; set; }

    /// <summary>The aggregates read so far, by slot.</summary>
    public IReadOnlyList<AggregateExpr> Aggregates => _aggregates;

    public Expr Primary()
    {
        var token = cursor.Current;
        switch (token.Kind)
        {
            case TokenKind.Number:
                cursor.Advance();
                return new ConstantExpr(QValue.FromNumber(token.Number));
            case TokenKind.String:
                cursor.Advance();
                return new ConstantExpr(QValue.FromString(token.Text));
            case TokenKind.Parameter:
                cursor.Advance();
                return Parameter(token);
            case TokenKind.Identifier:
                return IdentifierExpression();
            case TokenKind.Symbol when token.Text == "(":
                cursor.Advance();
                if (cursor.Current.IsKeyword("SELECT"))
                {
                    throw cursor.Error("Subqueries are not supported by this emulator");
                }

                var inner = expressions.Expression();
                cursor.ExpectSymbol(")", "to close the parenthesis");
                return inner;
            case TokenKind.Symbol when token.Text == "[":
                cursor.Advance();
                var items = new List<Expr>();
                if (!cursor.AcceptSymbol("]"))
                {
                    do
                    {
                        items.Add(expressions.Expression());
                    }
                    while (cursor.AcceptSymbol(","));
                    cursor.ExpectSymbol("]", "to close the array");
                }

                return new ArrayExpr([.. items]);
            case TokenKind.Symbol when token.Text == "{":
                return ObjectLiteral();
            default:
                throw cursor.Error($"Syntax error: expected an expression but found {token.Describe()}");
        }
    }

    private ObjectExpr ObjectLiteral()
    {
        cursor.Advance();
        var names = new List<string>();
        var values = new List<Expr>();
        if (!cursor.AcceptSymbol("}"))
        {
            do
            {
                var key = cursor.Current;
                if (key.Kind is not (TokenKind.String or TokenKind.Identifier))
                {
                    throw cursor.Error($"Syntax error: expected a property name in the object but found {key.Describe()}");
                }

                cursor.Advance();
                cursor.ExpectSymbol(":", "after the property name");
                if (names.Contains(key.Text))
                {
                    throw SqlQueryException.At(cursor.Text, key.Position, $"Duplicate property '{key.Text}' in the object");
                }

                names.Add(key.Text);
                values.Add(expressions.Expression());
            }
            while (cursor.AcceptSymbol(","));
            cursor.ExpectSymbol("}", "to close the object");
        }

        return new ObjectExpr([.. names], [.. values]);
    }

    private Expr IdentifierExpression()
    {
        var token = cursor.Current;
        cursor.Advance();
        if ((token.IsKeyword("EXISTS") || token.IsKeyword("ARRAY")) && cursor.Current.IsSymbol("("))
        {
            throw SqlQueryException.At(cursor.Text, token.Position, $"{token.Text.ToUpperInvariant()} subqueries are not supported by this emulator");
        }

        if (cursor.Current.IsSymbol("("))
        {
            return Call(token);
        }

        if (token.IsKeyword("udf") && cursor.Current.IsSymbol("."))
        {
            throw SqlQueryException.At(cursor.Text, token.Position, "User-defined functions are not supported by this emulator");
        }

        if (token.IsKeyword("true"))
        {
            return new ConstantExpr(QValue.True);
        }

        if (token.IsKeyword("false"))
        {
            return new ConstantExpr(QValue.False);
        }

        if (token.IsKeyword("null"))
        {
            return new ConstantExpr(QValue.Null);
        }

        if (token.IsKeyword("undefined"))
        {
            return new ConstantExpr(QValue.Undefined);
        }

        if (Alias is not null && string.Equals(token.Text, Alias, StringComparison.Ordinal))
        {
            return new RootExpr(Alias);
        }

        var known = Alias is null ? "the query has no FROM clause" : $"the FROM alias is '{Alias}'";
        throw SqlQueryException.At(cursor.Text, token.Position, $"Identifier '{token.Text}' could not be resolved; {known}");
    }

    private Expr Call(Token name)
    {
        cursor.Advance(); // (
        if (AggregateNames.TryGetValue(name.Text, out var kind))
        {
            return Aggregate(name, kind);
        }

        if (!Functions.TryGet(name.Text, out var function))
        {
            throw SqlQueryException.At(cursor.Text, name.Position, $"The function '{name.Text}' is not supported by this emulator; supported: {string.Join(", ", Functions.Names)}, COUNT, SUM, MIN, MAX, AVG");
        }

        var args = Arguments();
        if (args.Count < function.MinArgs || args.Count > function.MaxArgs)
        {
            var expected = function.MinArgs == function.MaxArgs ? $"{function.MinArgs}" : $"{function.MinArgs} to {function.MaxArgs}";
            throw SqlQueryException.At(cursor.Text, name.Position, $"The function {function.Name} takes {expected} argument(s), not {args.Count}");
        }

        return new FunctionExpr(function, [.. args]);
    }

    private AggregateExpr Aggregate(Token name, AggregateKind kind)
    {
        if (!InSelect)
        {
            throw SqlQueryException.At(cursor.Text, name.Position, $"The aggregate {name.Text.ToUpperInvariant()} is only allowed in the SELECT list");
        }

        if (_inAggregate)
        {
            throw SqlQueryException.At(cursor.Text, name.Position, "Aggregates cannot be nested");
        }

        if (cursor.Current.IsSymbol("*"))
        {
            throw cursor.Error($"{name.Text.ToUpperInvariant()}(*) is not valid Cosmos DB SQL; use COUNT(1)");
        }

        _inAggregate = true;
        List<Expr> args;
        try
        {
            args = Arguments();
        }
        finally
        {
            _inAggregate = false;
        }

        if (args.Count != 1)
        {
            throw SqlQueryException.At(cursor.Text, name.Position, $"The aggregate {name.Text.ToUpperInvariant()} takes 1 argument, not {args.Count}");
        }

        var aggregate = new AggregateExpr(kind, args[0], _aggregates.Count);
        _aggregates.Add(aggregate);
        return aggregate;
    }

    private List<Expr> Arguments()
    {
        var args = new List<Expr>();
        if (cursor.AcceptSymbol(")"))
        {
            return args;
        }

        do
        {
            args.Add(expressions.Expression());
        }
        while (cursor.AcceptSymbol(","));
        cursor.ExpectSymbol(")", "to close the argument list");
        return args;
    }

    public ParameterExpr Parameter(Token token)
    {
        if (!_parameters.TryGetValue(token.Text, out var slot))
        {
            slot = _parameters.Count;
            _parameters.Add(token.Text, slot);
        }

        return new ParameterExpr(slot, token.Text);
    }

    /// <summary>With aggregates in the select list, every document reference must sit inside an aggregate: without
    /// GROUP BY there is no single document left to read it from.</summary>
    public void CheckAggregateUse(IEnumerable<Expr> selected)
    {
        if (_aggregates.Count > 0 && selected.Any(ReferencesDocumentOutsideAggregate))
        {
            throw new SqlQueryException("A property of the document outside an aggregate needs GROUP BY, which is not supported by this emulator; use only aggregates in the select list.");
        }
    }

    private static bool ReferencesDocumentOutsideAggregate(Expr expr) => expr switch
    {
        AggregateExpr => false,
        RootExpr => true,
        _ => expr.Children.Any(ReferencesDocumentOutsideAggregate),
    };

    public string[] ParameterNames()
    {
        var names = new string[_parameters.Count];
        foreach (var (name, slot) in _parameters)
        {
            names[slot] = name;
        }

        return names;
    }
}
