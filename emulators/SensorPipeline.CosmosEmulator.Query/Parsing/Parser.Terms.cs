namespace SensorPipeline.CosmosEmulator.Query.Parsing;

/// <summary>The terms of an expression: literals, parameters, the FROM alias, function and aggregate calls.</summary>
internal sealed partial class Parser
{
    private static readonly Dictionary<string, AggregateKind> AggregateNames = new(StringComparer.OrdinalIgnoreCase)
    {
        ["COUNT"] = AggregateKind.Count,
        ["SUM"] = AggregateKind.Sum,
        ["MIN"] = AggregateKind.Min,
        ["MAX"] = AggregateKind.Max,
        ["AVG"] = AggregateKind.Average,
    };

    private Expr Primary()
    {
        var token = Current;
        switch (token.Kind)
        {
            case TokenKind.Number:
                _pos++;
                return new ConstantExpr(QValue.FromNumber(token.Number));
            case TokenKind.String:
                _pos++;
                return new ConstantExpr(QValue.FromString(token.Text));
            case TokenKind.Parameter:
                _pos++;
                return Parameter(token);
            case TokenKind.Identifier:
                return IdentifierExpression();
            case TokenKind.Symbol when token.Text == "(":
                _pos++;
                if (Current.IsKeyword("SELECT"))
                {
                    throw Error("Subqueries are not supported by this emulator");
                }

                var inner = Expression();
                ExpectSymbol(")", "to close the parenthesis");
                return inner;
            case TokenKind.Symbol when token.Text == "[":
                _pos++;
                var items = new List<Expr>();
                if (!AcceptSymbol("]"))
                {
                    do
                    {
                        items.Add(Expression());
                    }
                    while (AcceptSymbol(","));
                    ExpectSymbol("]", "to close the array");
                }

                return new ArrayExpr([.. items]);
            case TokenKind.Symbol when token.Text == "{":
                return ObjectLiteral();
            default:
                throw Error($"Syntax error: expected an expression but found {token.Describe()}");
        }
    }

    private ObjectExpr ObjectLiteral()
    {
        _pos++;
        var names = new List<string>();
        var values = new List<Expr>();
        if (!AcceptSymbol("}"))
        {
            do
            {
                var key = Current;
                if (key.Kind is not (TokenKind.String or TokenKind.Identifier))
                {
                    throw Error($"Syntax error: expected a property name in the object but found {key.Describe()}");
                }

                _pos++;
                ExpectSymbol(":", "after the property name");
                if (names.Contains(key.Text))
                {
                    throw SqlQueryException.At(_text, key.Position, $"Duplicate property '{key.Text}' in the object");
                }

                names.Add(key.Text);
                values.Add(Expression());
            }
            while (AcceptSymbol(","));
            ExpectSymbol("}", "to close the object");
        }

        return new ObjectExpr([.. names], [.. values]);
    }

    private Expr IdentifierExpression()
    {
        var token = Current;
        _pos++;
        if ((token.IsKeyword("EXISTS") || token.IsKeyword("ARRAY")) && Current.IsSymbol("("))
        {
            throw SqlQueryException.At(_text, token.Position, $"{token.Text.ToUpperInvariant()} subqueries are not supported by this emulator");
        }

        if (Current.IsSymbol("("))
        {
            return Call(token);
        }

        if (token.IsKeyword("udf") && Current.IsSymbol("."))
        {
            throw SqlQueryException.At(_text, token.Position, "User-defined functions are not supported by this emulator");
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

        if (_alias is not null && string.Equals(token.Text, _alias, StringComparison.Ordinal))
        {
            return new RootExpr(_alias);
        }

        var known = _alias is null ? "the query has no FROM clause" : $"the FROM alias is '{_alias}'";
        throw SqlQueryException.At(_text, token.Position, $"Identifier '{token.Text}' could not be resolved; {known}");
    }

    private Expr Call(Token name)
    {
        _pos++; // (
        if (AggregateNames.TryGetValue(name.Text, out var kind))
        {
            return Aggregate(name, kind);
        }

        if (!Functions.TryGet(name.Text, out var function))
        {
            throw SqlQueryException.At(_text, name.Position, $"The function '{name.Text}' is not supported by this emulator; supported: {string.Join(", ", Functions.Names)}, COUNT, SUM, MIN, MAX, AVG");
        }

        var args = Arguments();
        if (args.Count < function.MinArgs || args.Count > function.MaxArgs)
        {
            var expected = function.MinArgs == function.MaxArgs ? $"{function.MinArgs}" : $"{function.MinArgs} to {function.MaxArgs}";
            throw SqlQueryException.At(_text, name.Position, $"The function {function.Name} takes {expected} argument(s), not {args.Count}");
        }

        return new FunctionExpr(function, [.. args]);
    }

    private AggregateExpr Aggregate(Token name, AggregateKind kind)
    {
        if (!_inSelect)
        {
            throw SqlQueryException.At(_text, name.Position, $"The aggregate {name.Text.ToUpperInvariant()} is only allowed in the SELECT list");
        }

        if (_inAggregate)
        {
            throw SqlQueryException.At(_text, name.Position, "Aggregates cannot be nested");
        }

        if (Current.IsSymbol("*"))
        {
            throw Error($"{name.Text.ToUpperInvariant()}(*) is not valid Cosmos DB SQL; use COUNT(1)");
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
            throw SqlQueryException.At(_text, name.Position, $"The aggregate {name.Text.ToUpperInvariant()} takes 1 argument, not {args.Count}");
        }

        var aggregate = new AggregateExpr(kind, args[0], _aggregates.Count);
        _aggregates.Add(aggregate);
        return aggregate;
    }

    private List<Expr> Arguments()
    {
        var args = new List<Expr>();
        if (AcceptSymbol(")"))
        {
            return args;
        }

        do
        {
            args.Add(Expression());
        }
        while (AcceptSymbol(","));
        ExpectSymbol(")", "to close the argument list");
        return args;
    }

    private ParameterExpr Parameter(Token token)
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
    private void CheckAggregateUse(IEnumerable<Expr> selected)
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
}
