namespace SensorPipeline.CosmosEmulator.Query.Parsing;

/// <summary>Scalar expressions, loosest binding first: ?:, ??, OR, AND, NOT, comparisons (with IN and BETWEEN),
/// ||, + -, * / %, unary - +, then property access and indexing.</summary>
internal sealed class ExpressionParser
{
    private readonly TokenCursor _cursor;

    /// <summary>Most levels of nesting the parser descends: parentheses, NOT, unary signs, array and object literals,
    /// function arguments and indexes, each a level. The parser recurses about a dozen frames per level, so this bounds
    /// its stack as <see cref="Expr.MaxHeight"/> bounds the evaluator's; the service documents no such limit.</summary>
    internal const int MaxNesting = 128;

    private int _nesting;

    public ExpressionParser(TokenCursor cursor)
    {
        _cursor = cursor;
        Terms = new TermParser(cursor, this);
    }

    /// <summary>The parser of the terms this one combines, which owns what they declare (parameters, aggregates).</summary>
    public TermParser Terms { get; }

    public Expr Expression()
    {
        using var level = Nest();
        var condition = Coalesce();
        if (!_cursor.AcceptSymbol("?"))
        {
            return condition;
        }

        var whenTrue = Expression();
        _cursor.ExpectSymbol(":", "in a conditional expression 'a ? b : c'");
        var whenFalse = Expression();
        return new ConditionalExpr(condition, whenTrue, whenFalse);
    }

    private Expr Coalesce()
    {
        var left = Or();
        while (_cursor.AcceptSymbol("??"))
        {
            left = new CoalesceExpr(left, Or());
        }

        return left;
    }

    private Expr Or()
    {
        var left = And();
        while (_cursor.Accept("OR"))
        {
            left = new OrExpr(left, And());
        }

        return left;
    }

    private Expr And()
    {
        var left = Not();
        while (_cursor.Accept("AND"))
        {
            left = new AndExpr(left, Not());
        }

        return left;
    }

    private Expr Not()
    {
        if (!_cursor.Accept("NOT"))
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
                _cursor.Advance();
                left = new BinaryExpr(binary, left, Concat());
                continue;
            }

            var negated = AcceptNegation();
            if (_cursor.Accept("IN"))
            {
                left = InList(left, negated);
            }
            else if (_cursor.Accept("BETWEEN"))
            {
                var low = Concat();
                _cursor.Expect("AND", "BETWEEN takes 'low AND high'");
                left = new BetweenExpr(left, low, Concat(), negated);
            }
            else if (_cursor.Current.IsKeyword("LIKE"))
            {
                throw _cursor.Error("LIKE is not supported by this emulator; use STARTSWITH, ENDSWITH or CONTAINS");
            }
            else
            {
                return left;
            }
        }
    }

    private BinaryOp? ComparisonOperator() => _cursor.Current.Kind == TokenKind.Symbol ? _cursor.Current.Text switch
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
        if (!_cursor.Current.IsKeyword("NOT") || _cursor.Peek(1).Kind != TokenKind.Identifier)
        {
            return false;
        }

        var next = _cursor.Peek(1);
        if (!(next.IsKeyword("IN") || next.IsKeyword("BETWEEN") || next.IsKeyword("LIKE")))
        {
            return false;
        }

        _cursor.Advance();
        return true;
    }

    private InExpr InList(Expr left, bool negated)
    {
        _cursor.ExpectSymbol("(", "after IN");
        if (_cursor.Current.IsKeyword("SELECT"))
        {
            throw _cursor.Error("Subqueries are not supported by this emulator");
        }

        var items = new List<Expr> { Expression() };
        while (_cursor.AcceptSymbol(","))
        {
            items.Add(Expression());
        }

        _cursor.ExpectSymbol(")", "to close the IN list");
        return new InExpr(left, [.. items], negated);
    }

    private Expr Concat()
    {
        var left = Additive();
        while (_cursor.AcceptSymbol("||"))
        {
            left = new BinaryExpr(BinaryOp.Concat, left, Additive());
        }

        if (_cursor.Current.Kind == TokenKind.Symbol && _cursor.Current.Text is "&" or "|" or "^")
        {
            throw _cursor.Error($"The bitwise operator '{_cursor.Current.Text}' is not supported by this emulator");
        }

        return left;
    }

    private Expr Additive()
    {
        var left = Multiplicative();
        while (true)
        {
            if (_cursor.AcceptSymbol("+"))
            {
                left = new BinaryExpr(BinaryOp.Add, left, Multiplicative());
            }
            else if (_cursor.AcceptSymbol("-"))
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
            if (_cursor.AcceptSymbol("*"))
            {
                left = new BinaryExpr(BinaryOp.Multiply, left, Unary());
            }
            else if (_cursor.AcceptSymbol("/"))
            {
                left = new BinaryExpr(BinaryOp.Divide, left, Unary());
            }
            else if (_cursor.AcceptSymbol("%"))
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
        if (_cursor.AcceptSymbol("-"))
        {
            using var level = Nest();
            return new UnaryExpr(UnaryOp.Negate, Unary());
        }

        if (_cursor.AcceptSymbol("+"))
        {
            using var level = Nest();
            return new UnaryExpr(UnaryOp.Plus, Unary());
        }

        if (_cursor.Current.IsSymbol("~"))
        {
            throw _cursor.Error("The bitwise operator '~' is not supported by this emulator");
        }

        return Postfix(Terms.Primary());
    }

    private Expr Postfix(Expr target)
    {
        while (true)
        {
            if (_cursor.AcceptSymbol("."))
            {
                target = new MemberExpr(target, _cursor.Name("a property name after '.'"));
            }
            else if (_cursor.AcceptSymbol("["))
            {
                var index = Expression();
                _cursor.ExpectSymbol("]", "to close the index");
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
            throw _cursor.Error($"The query nests expressions more than {MaxNesting} levels deep; this emulator refuses deeper nesting");
        }

        return new NestingLevel(this);
    }

    /// <summary>Leaves the level on dispose.</summary>
    private readonly ref struct NestingLevel(ExpressionParser parser)
    {
        public void Dispose() => parser._nesting--;
    }
}
