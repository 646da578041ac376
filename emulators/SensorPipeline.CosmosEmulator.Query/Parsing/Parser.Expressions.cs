namespace SensorPipeline.CosmosEmulator.Query.Parsing;

/// <summary>Scalar expressions, loosest binding first: ?:, ??, OR, AND, NOT, comparisons (with IN and BETWEEN),
/// ||, + -, * / %, unary - +, then property access and indexing.</summary>
internal sealed partial class Parser
{
    /// <summary>Most levels of nesting the parser descends: parentheses, NOT, unary signs, array and object literals,
    /// function arguments and indexes, each a level. The parser recurses about a dozen frames per level, so this bounds
    /// its stack as <see cref="Expr.MaxHeight"/> bounds the evaluator's; the service documents no such limit.</summary>
    internal const int MaxNesting = 128;

    private Expr Expression()
    {
        using var level = Nest();
        var condition = Coalesce();
        if (!AcceptSymbol("?"))
        {
            return condition;
        }

        var whenTrue = Expression();
        ExpectSymbol(":", "in a conditional expression 'a ? b : c'");
        var whenFalse = Expression();
        return new ConditionalExpr(condition, whenTrue, whenFalse);
    }

    private Expr Coalesce()
    {
        var left = Or();
        while (AcceptSymbol("??"))
        {
            left = new CoalesceExpr(left, Or());
        }

        return left;
    }

    private Expr Or()
    {
        var left = And();
        while (Accept("OR"))
        {
            left = new OrExpr(left, And());
        }

        return left;
    }

    private Expr And()
    {
        var left = Not();
        while (Accept("AND"))
        {
            left = new AndExpr(left, Not());
        }

        return left;
    }

    private Expr Not()
    {
        if (!Accept("NOT"))
        {
            return Comparison();
        }

        using var level = Nest();
        return new UnaryExpr(UnaryOp.Not, Not());
    }

    private Expr Comparison()
    {
        var left = Concat();
        while (true)
        {
            if (ComparisonOperator() is { } binary)
            {
                _pos++;
                left = new BinaryExpr(binary, left, Concat());
                continue;
            }

            var negated = AcceptNegation();
            if (Accept("IN"))
            {
                left = InList(left, negated);
            }
            else if (Accept("BETWEEN"))
            {
                var low = Concat();
                Expect("AND", "BETWEEN takes 'low AND high'");
                left = new BetweenExpr(left, low, Concat(), negated);
            }
            else if (Current.IsKeyword("LIKE"))
            {
                throw Error("LIKE is not supported by this emulator; use STARTSWITH, ENDSWITH or CONTAINS");
            }
            else
            {
                return left;
            }
        }
    }

    private BinaryOp? ComparisonOperator() => Current.Kind == TokenKind.Symbol ? Current.Text switch
    {
        "=" => BinaryOp.Equal,
        "!=" or "<>" => BinaryOp.NotEqual,
        "<" => BinaryOp.Less,
        "<=" => BinaryOp.LessOrEqual,
        ">" => BinaryOp.Greater,
        ">=" => BinaryOp.GreaterOrEqual,
        _ => (BinaryOp?)null,
    } : null;

    /// <summary>Takes NOT only before IN, BETWEEN or LIKE, which it negates; otherwise leaves it in place.</summary>
    private bool AcceptNegation()
    {
        if (!Current.IsKeyword("NOT") || _tokens[_pos + 1].Kind != TokenKind.Identifier)
        {
            return false;
        }

        var next = _tokens[_pos + 1];
        if (!(next.IsKeyword("IN") || next.IsKeyword("BETWEEN") || next.IsKeyword("LIKE")))
        {
            return false;
        }

        _pos++;
        return true;
    }

    private InExpr InList(Expr left, bool negated)
    {
        ExpectSymbol("(", "after IN");
        if (Current.IsKeyword("SELECT"))
        {
            throw Error("Subqueries are not supported by this emulator");
        }

        var items = new List<Expr> { Expression() };
        while (AcceptSymbol(","))
        {
            items.Add(Expression());
        }

        ExpectSymbol(")", "to close the IN list");
        return new InExpr(left, [.. items], negated);
    }

    private Expr Concat()
    {
        var left = Additive();
        while (AcceptSymbol("||"))
        {
            left = new BinaryExpr(BinaryOp.Concat, left, Additive());
        }

        if (Current.Kind == TokenKind.Symbol && Current.Text is "&" or "|" or "^")
        {
            throw Error($"The bitwise operator '{Current.Text}' is not supported by this emulator");
        }

        return left;
    }

    private Expr Additive()
    {
        var left = Multiplicative();
        while (true)
        {
            if (AcceptSymbol("+"))
            {
                left = new BinaryExpr(BinaryOp.Add, left, Multiplicative());
            }
            else if (AcceptSymbol("-"))
            {
                left = new BinaryExpr(BinaryOp.Subtract, left, Multiplicative());
            }
            else
            {
                return left;
            }
        }
    }

    private Expr Multiplicative()
    {
        var left = Unary();
        while (true)
        {
            if (AcceptSymbol("*"))
            {
                left = new BinaryExpr(BinaryOp.Multiply, left, Unary());
            }
            else if (AcceptSymbol("/"))
            {
                left = new BinaryExpr(BinaryOp.Divide, left, Unary());
            }
            else if (AcceptSymbol("%"))
            {
                left = new BinaryExpr(BinaryOp.Modulo, left, Unary());
            }
            else
            {
                return left;
            }
        }
    }

    private Expr Unary()
    {
        if (AcceptSymbol("-"))
        {
            using var level = Nest();
            return new UnaryExpr(UnaryOp.Negate, Unary());
        }

        if (AcceptSymbol("+"))
        {
            using var level = Nest();
            return new UnaryExpr(UnaryOp.Plus, Unary());
        }

        if (Current.IsSymbol("~"))
        {
            throw Error("The bitwise operator '~' is not supported by this emulator");
        }

        return Postfix(Primary());
    }

    private Expr Postfix(Expr target)
    {
        while (true)
        {
            if (AcceptSymbol("."))
            {
                target = new MemberExpr(target, Name("a property name after '.'"));
            }
            else if (AcceptSymbol("["))
            {
                var index = Expression();
                ExpectSymbol("]", "to close the index");
                target = index is ConstantExpr { Value.Kind: QKind.String } name
                    ? new MemberExpr(target, name.Value.GetString())
                    : new IndexExpr(target, index);
            }
            else
            {
                return target;
            }
        }
    }

    /// <summary>Enters one level of nesting; past <see cref="MaxNesting"/> the query is refused where the level begins.</summary>
    private NestingLevel Nest()
    {
        if (++_nesting > MaxNesting)
        {
            _nesting--;
            throw Error($"The query nests expressions more than {MaxNesting} levels deep; this emulator refuses deeper nesting");
        }

        return new NestingLevel(this);
    }

    /// <summary>Leaves the level on dispose.</summary>
    private readonly ref struct NestingLevel(Parser parser)
    {
        public void Dispose() => parser._nesting--;
    }
}
