namespace SensorPipeline.CosmosEmulator.Query.Evaluation;

internal enum BinaryOp
{
    Equal,
    NotEqual,
    Less,
    LessOrEqual,
    Greater,
    GreaterOrEqual,
    Add,
    Subtract,
    Multiply,
    Divide,
    Modulo,
    Concat,
}

/// <summary>Comparison, arithmetic and string concatenation. Any operand of the wrong type makes the result
/// undefined, as do non-finite arithmetic results (JSON has no NaN or infinity).</summary>
internal sealed class BinaryExpr(BinaryOp op, Expr left, Expr right) : Expr(left, right)
{
    public BinaryOp Op => op;

    public Expr Left => left;

    public Expr Right => right;

    public override QValue Eval(EvalContext ctx) => Apply(op, left.Eval(ctx), right.Eval(ctx));

    public override IEnumerable<Expr> Children => [left, right];

    public static QValue Apply(BinaryOp op, in QValue a, in QValue b)
    {
        switch (op)
        {
            case BinaryOp.Equal:
                return QCompare.EqualsOperator(a, b);
            case BinaryOp.NotEqual:
                var equal = QCompare.EqualsOperator(a, b);
                return equal.IsUndefined ? equal : QValue.FromBool(!equal.Boolean);
            case BinaryOp.Less:
            case BinaryOp.LessOrEqual:
            case BinaryOp.Greater:
            case BinaryOp.GreaterOrEqual:
                if (QCompare.Relational(a, b) is not { } order)
                {
                    return QValue.Undefined;
                }

                return QValue.FromBool(op switch
                {
                    BinaryOp.Less => order < 0,
                    BinaryOp.LessOrEqual => order <= 0,
                    BinaryOp.Greater => order > 0,
                    _ => order >= 0,
                });
            case BinaryOp.Concat:
                return a.Kind == QKind.String && b.Kind == QKind.String
                    ? QValue.FromString(string.Concat(a.GetString(), b.GetString()))
                    : QValue.Undefined;
            default:
                if (a.Kind != QKind.Number || b.Kind != QKind.Number)
                {
                    return QValue.Undefined;
                }

                var result = op switch
                {
                    BinaryOp.Add => a.Number + b.Number,
                    BinaryOp.Subtract => a.Number - b.Number,
                    BinaryOp.Multiply => a.Number * b.Number,
                    BinaryOp.Divide => a.Number / b.Number,
                    _ => a.Number % b.Number,
                };
                return double.IsFinite(result) ? QValue.FromNumber(result) : QValue.Undefined;
        }
    }
}

/// <summary><c>a AND b</c> in three-valued logic: false if either side is false, true if both are true, else undefined.</summary>
internal sealed class AndExpr(Expr left, Expr right) : Expr(left, right)
{
    public Expr Left => left;

    public Expr Right => right;

    public override QValue Eval(EvalContext ctx)
    {
        var a = left.Eval(ctx);
        if (a.Kind == QKind.Boolean && !a.Boolean)
        {
            return QValue.False;
        }

        var b = right.Eval(ctx);
        if (b.Kind == QKind.Boolean && !b.Boolean)
        {
            return QValue.False;
        }

        return a.Kind == QKind.Boolean && b.Kind == QKind.Boolean ? QValue.True : QValue.Undefined;
    }

    public override IEnumerable<Expr> Children => [left, right];
}

/// <summary><c>a OR b</c> in three-valued logic: true if either side is true, false if both are false, else undefined.</summary>
internal sealed class OrExpr(Expr left, Expr right) : Expr(left, right)
{
    public override QValue Eval(EvalContext ctx)
    {
        var a = left.Eval(ctx);
        if (a.Kind == QKind.Boolean && a.Boolean)
        {
            return QValue.True;
        }

        var b = right.Eval(ctx);
        if (b.Kind == QKind.Boolean && b.Boolean)
        {
            return QValue.True;
        }

        return a.Kind == QKind.Boolean && b.Kind == QKind.Boolean ? QValue.False : QValue.Undefined;
    }

    public override IEnumerable<Expr> Children => [left, right];
}

internal enum UnaryOp
{
    Not,
    Negate,
    Plus,
}

internal sealed class UnaryExpr(UnaryOp op, Expr operand) : Expr(operand)
{
    public override QValue Eval(EvalContext ctx)
    {
        var value = operand.Eval(ctx);
        return op switch
        {
            UnaryOp.Not => value.Kind == QKind.Boolean ? QValue.FromBool(!value.Boolean) : QValue.Undefined,
            UnaryOp.Negate => value.Kind == QKind.Number ? QValue.FromNumber(-value.Number) : QValue.Undefined,
            _ => value.Kind == QKind.Number ? value : QValue.Undefined,
        };
    }

    public override IEnumerable<Expr> Children => [operand];
}

/// <summary><c>x [NOT] IN (a, b, …)</c>: true when x equals one of the items (same type, deep equality).</summary>
internal sealed class InExpr(Expr value, Expr[] items, bool negated) : Expr([value, .. items])
{
    public Expr Value => value;

    public IReadOnlyList<Expr> Items => items;

    public bool Negated => negated;

    public override QValue Eval(EvalContext ctx)
    {
        var x = value.Eval(ctx);
        if (x.IsUndefined)
        {
            return QValue.Undefined;
        }

        var found = false;
        foreach (var item in items)
        {
            if (QCompare.DeepEquals(x, item.Eval(ctx)))
            {
                found = true;
                break;
            }
        }

        return QValue.FromBool(found != negated);
    }

    public override IEnumerable<Expr> Children => [value, .. items];
}

/// <summary><c>x [NOT] BETWEEN low AND high</c>, i.e. <c>x &gt;= low AND x &lt;= high</c> (undefined across types).</summary>
internal sealed class BetweenExpr(Expr value, Expr low, Expr high, bool negated) : Expr(value, low, high)
{
    public override QValue Eval(EvalContext ctx)
    {
        var x = value.Eval(ctx);
        if (QCompare.Relational(x, low.Eval(ctx)) is not { } fromLow || QCompare.Relational(x, high.Eval(ctx)) is not { } toHigh)
        {
            return QValue.Undefined;
        }

        return QValue.FromBool((fromLow >= 0 && toHigh <= 0) != negated);
    }

    public override IEnumerable<Expr> Children => [value, low, high];
}
