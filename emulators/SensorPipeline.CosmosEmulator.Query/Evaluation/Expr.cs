namespace SensorPipeline.CosmosEmulator.Query.Evaluation;

/// <summary>What an expression sees while it is evaluated: the current document, the parameter values (by slot) and,
/// in the final step of an aggregate query, the aggregate results (by slot). One per execution: queries are shared.</summary>
internal sealed class EvalContext(QValue[] parameters)
{
    public QValue Root;

    public QValue[] Parameters { get; } = parameters;

    public QValue[]? AggregateResults;
}

/// <summary>A scalar expression of the query language. Its <see cref="Height"/> is known when it is built, from its
/// children's, so a tree too tall to walk safely is refused as it is built — before anything recurses over it.</summary>
internal abstract class Expr
{
    /// <summary>Most levels an expression tree may have: 2,048. The evaluator, like every walk over a tree (the aggregate
    /// checks, the query plan, the spatial filters), recurses once per level; a stack overflow cannot be caught and
    /// would end the process, so the height is bounded instead. Left-associative chains count one level per operator
    /// (<c>a OR b OR c</c> is three): the SDK's ReadMany query of 1,000 pairs is about 1,000 levels. The service
    /// documents no such limit; this one is the emulator's.</summary>
    public const int MaxHeight = 2048;

    protected Expr(params ReadOnlySpan<Expr> children)
    {
        var tallest = 0;
        foreach (var child in children)
        {
            tallest = Math.Max(tallest, child.Height);
        }

        Height = tallest + 1;
        if (Height > MaxHeight)
        {
            throw new SqlQueryException($"The expression is more than {MaxHeight} operations deep; this emulator refuses deeper expressions.");
        }
    }

    /// <summary>Levels of the tree below and including this node (1 for a leaf).</summary>
    public int Height { get; }

    public abstract QValue Eval(EvalContext ctx);

    /// <summary>The direct sub-expressions, for the parser's checks (aggregates, document references).</summary>
    public virtual IEnumerable<Expr> Children => [];
}

internal sealed class ConstantExpr(QValue value) : Expr
{
    public QValue Value { get; } = value;

    public override QValue Eval(EvalContext ctx) => Value;
}

internal sealed class ParameterExpr(int slot, string name) : Expr
{
    public int Slot { get; } = slot;

    public string Name { get; } = name;

    public override QValue Eval(EvalContext ctx) => ctx.Parameters[Slot];
}

/// <summary>The FROM alias: the whole document.</summary>
internal sealed class RootExpr(string alias) : Expr
{
    public string Alias { get; } = alias;

    public override QValue Eval(EvalContext ctx) => ctx.Root;
}

/// <summary><c>target.name</c> or <c>target["name"]</c>.</summary>
internal sealed class MemberExpr(Expr target, string name) : Expr(target)
{
    public Expr Target { get; } = target;

    public string Name { get; } = name;

    public override QValue Eval(EvalContext ctx) => Target.Eval(ctx).Property(Name);

    public override IEnumerable<Expr> Children => [Target];
}

/// <summary><c>target[index]</c> with a computed index: a number indexes an array, a string names a property.</summary>
internal sealed class IndexExpr(Expr target, Expr index) : Expr(target, index)
{
    public Expr Target { get; } = target;

    public Expr Index { get; } = index;

    public override QValue Eval(EvalContext ctx)
    {
        var target = Target.Eval(ctx);
        var index = Index.Eval(ctx);
        if (index.Kind == QKind.String)
        {
            return target.Property(index.GetString());
        }

        if (index.Kind == QKind.Number && target.Kind == QKind.Array && index.Number == Math.Floor(index.Number) && index.Number >= 0 && index.Number <= int.MaxValue)
        {
            return target.ArrayItem((int)index.Number);
        }

        return QValue.Undefined;
    }

    public override IEnumerable<Expr> Children => [Target, Index];
}

internal sealed class ArrayExpr(Expr[] items) : Expr(items)
{
    public Expr[] Items { get; } = items;

    public override QValue Eval(EvalContext ctx)
    {
        var values = new QValue[Items.Length];
        for (var i = 0; i < values.Length; i++)
        {
            values[i] = Items[i].Eval(ctx);
        }

        return QValue.FromArray(values);
    }

    public override IEnumerable<Expr> Children => Items;
}

internal sealed class ObjectExpr(string[] names, Expr[] values) : Expr(values)
{
    public string[] Names { get; } = names;

    public Expr[] Values { get; } = values;

    public override QValue Eval(EvalContext ctx)
    {
        var properties = new KeyValuePair<string, QValue>[Names.Length];
        for (var i = 0; i < properties.Length; i++)
        {
            properties[i] = new(Names[i], Values[i].Eval(ctx));
        }

        return QValue.FromObject(properties);
    }

    public override IEnumerable<Expr> Children => Values;
}

/// <summary><c>cond ? a : b</c>: a when cond is true, b otherwise (also when cond is not a boolean).</summary>
internal sealed class ConditionalExpr(Expr condition, Expr whenTrue, Expr whenFalse) : Expr(condition, whenTrue, whenFalse)
{
    public override QValue Eval(EvalContext ctx)
    {
        var value = condition.Eval(ctx);
        return value.Kind == QKind.Boolean && value.Boolean ? whenTrue.Eval(ctx) : whenFalse.Eval(ctx);
    }

    public override IEnumerable<Expr> Children => [condition, whenTrue, whenFalse];
}

/// <summary><c>a ?? b</c>: a unless it is undefined.</summary>
internal sealed class CoalesceExpr(Expr left, Expr right) : Expr(left, right)
{
    public override QValue Eval(EvalContext ctx)
    {
        var value = left.Eval(ctx);
        return value.IsUndefined ? right.Eval(ctx) : value;
    }

    public override IEnumerable<Expr> Children => [left, right];
}
