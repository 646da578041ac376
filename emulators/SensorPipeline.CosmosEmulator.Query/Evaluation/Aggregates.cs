namespace SensorPipeline.CosmosEmulator.Query.Evaluation;

internal enum AggregateKind
{
    Count,
    Sum,
    Min,
    Max,
    Average,
}

/// <summary>An aggregate call in the select list. Its argument is fed row by row to an <see cref="Accumulator"/>;
/// the select list is evaluated once at the end, where this node stands for the accumulated result.</summary>
internal sealed class AggregateExpr(AggregateKind kind, Expr argument, int slot) : Expr(argument)
{
    public AggregateKind Kind { get; } = kind;

    public Expr Argument { get; } = argument;

    public int Slot { get; } = slot;

    public override QValue Eval(EvalContext ctx) => ctx.AggregateResults is { } results
        ? results[Slot]
        : throw new InvalidOperationException("An aggregate is evaluated only over the whole result.");

    public override IEnumerable<Expr> Children => [Argument];

    public Accumulator CreateAccumulator() => new(Kind);
}

/// <summary>The running state of one aggregate, with the service's rules: undefined arguments are skipped; SUM and AVG
/// are undefined if any defined argument is not a number; MIN and MAX order mixed primitive types by type (null &lt;
/// booleans &lt; numbers &lt; strings) and are undefined if an argument is an array or object; on no rows COUNT and SUM
/// give 0 and the others undefined.</summary>
internal sealed class Accumulator(AggregateKind kind)
{
    private long _count;
    private double _sum;
    private bool _invalid;
    private SortKey _best;
    private bool _hasBest;

    public void Add(in QValue value)
    {
        if (value.IsUndefined || _invalid)
        {
            return;
        }

        switch (kind)
        {
            case AggregateKind.Count:
                _count++;
                break;
            case AggregateKind.Sum:
            case AggregateKind.Average:
                if (value.Kind != QKind.Number)
                {
                    _invalid = true;
                    return;
                }

                _sum += value.Number;
                _count++;
                break;
            default:
                if (value.Kind is QKind.Array or QKind.Object)
                {
                    _invalid = true;
                    return;
                }

                var key = SortKey.From(value);
                var order = key.CompareTo(_best);
                if (!_hasBest || (kind == AggregateKind.Min ? order < 0 : order > 0))
                {
                    _best = key;
                    _hasBest = true;
                }

                break;
        }
    }

    public QValue Result() => kind switch
    {
        _ when _invalid => QValue.Undefined,
        AggregateKind.Count => QValue.FromNumber(_count),
        AggregateKind.Sum => QValue.FromNumber(_sum),
        AggregateKind.Average => _count == 0 ? QValue.Undefined : QValue.FromNumber(_sum / _count),
        _ => _hasBest ? _best.ToValue() : QValue.Undefined,
    };
}
