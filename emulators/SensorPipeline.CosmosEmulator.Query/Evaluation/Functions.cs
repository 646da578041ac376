namespace SensorPipeline.CosmosEmulator.Query.Evaluation;

/// <summary>A call of a built-in scalar function. Arguments are evaluated by the function itself, so a call
/// allocates nothing beyond its result.</summary>
internal sealed class FunctionExpr(Builtin function, Expr[] args) : Expr(args)
{
    public Builtin Function { get; } = function;

    public IReadOnlyList<Expr> Args => args;

    public override QValue Eval(EvalContext ctx) => Function.Implementation(args, ctx);

    public override IEnumerable<Expr> Children => args;
}

internal sealed record Builtin(string Name, int MinArgs, int MaxArgs, Func<Expr[], EvalContext, QValue> Implementation);

/// <summary>The supported built-in functions. Like the service, a function given an argument of the wrong type
/// returns undefined rather than failing the query.</summary>
internal static class Functions
{
    private static readonly Dictionary<string, Builtin> ByName = Create();

    public static IEnumerable<string> Names => ByName.Keys.Order(StringComparer.Ordinal);

    public static bool TryGet(string name, out Builtin function) => ByName.TryGetValue(name, out function!);

    private static Dictionary<string, Builtin> Create()
    {
        var all = new List<Builtin>
        {
            new("IS_DEFINED", 1, 1, (a, c) => QValue.FromBool(!a[0].Eval(c).IsUndefined)),
            TypeCheck("IS_NULL", QKind.Null),
            TypeCheck("IS_BOOL", QKind.Boolean),
            TypeCheck("IS_NUMBER", QKind.Number),
            TypeCheck("IS_STRING", QKind.String),
            TypeCheck("IS_ARRAY", QKind.Array),
            TypeCheck("IS_OBJECT", QKind.Object),
            new("IS_PRIMITIVE", 1, 1, (a, c) => a[0].Eval(c).Kind is QKind.Null or QKind.Boolean or QKind.Number or QKind.String ? QValue.True : QValue.False),
            StringTest("STARTSWITH", (s, p, cmp) => s.StartsWith(p, cmp)),
            StringTest("ENDSWITH", (s, p, cmp) => s.EndsWith(p, cmp)),
            StringTest("CONTAINS", (s, p, cmp) => s.Contains(p, cmp)),
            new("LOWER", 1, 1, (a, c) => MapString(a[0].Eval(c), s => s.ToLowerInvariant())),
            new("UPPER", 1, 1, (a, c) => MapString(a[0].Eval(c), s => s.ToUpperInvariant())),
            new("LENGTH", 1, 1, (a, c) => a[0].Eval(c) is { Kind: QKind.String } s ? QValue.FromNumber(s.GetString().Length) : QValue.Undefined),
            new("ABS", 1, 1, (a, c) => a[0].Eval(c) is { Kind: QKind.Number } n ? QValue.FromNumber(Math.Abs(n.Number)) : QValue.Undefined),
            new("ARRAY_LENGTH", 1, 1, (a, c) => a[0].Eval(c) is { Kind: QKind.Array } arr ? QValue.FromNumber(arr.ArrayLength) : QValue.Undefined),
            new("ARRAY_CONTAINS", 2, 3, ArrayContains),
            new("ST_DISTANCE", 2, 2, (a, c) => Spatial.Distance(a[0].Eval(c), a[1].Eval(c))),
            new("ST_WITHIN", 2, 2, (a, c) => Spatial.Within(a[0].Eval(c), a[1].Eval(c))),
            new("ST_ISVALID", 1, 1, (a, c) => QValue.FromBool(Spatial.IsValid(a[0].Eval(c)))),
        };
        return all.ToDictionary(f => f.Name, StringComparer.OrdinalIgnoreCase);
    }

    private static Builtin TypeCheck(string name, QKind kind) =>
        new(name, 1, 1, (a, c) => QValue.FromBool(a[0].Eval(c).Kind == kind));

    /// <summary>STARTSWITH(s, prefix [, ignoreCase]) and friends: undefined unless both are strings.</summary>
    private static Builtin StringTest(string name, Func<string, string, StringComparison, bool> test) =>
        new(name, 2, 3, (a, c) =>
        {
            var s = a[0].Eval(c);
            var p = a[1].Eval(c);
            if (s.Kind != QKind.String || p.Kind != QKind.String)
            {
                return QValue.Undefined;
            }

            var ignoreCase = a.Length == 3 && a[2].Eval(c) is { Kind: QKind.Boolean, Boolean: true };
            return QValue.FromBool(test(s.GetString(), p.GetString(), ignoreCase ? StringComparison.OrdinalIgnoreCase : StringComparison.Ordinal));
        });

    private static QValue MapString(in QValue value, Func<string, string> map) =>
        value.Kind == QKind.String ? QValue.FromString(map(value.GetString())) : QValue.Undefined;

    /// <summary>ARRAY_CONTAINS(arr, value [, partial]): with partial true an object item matches when it contains all
    /// the properties of <c>value</c> with equal values.</summary>
    private static QValue ArrayContains(Expr[] args, EvalContext ctx)
    {
        var array = args[0].Eval(ctx);
        var value = args[1].Eval(ctx);
        if (array.Kind != QKind.Array || value.IsUndefined)
        {
            return QValue.Undefined;
        }

        var partial = args.Length == 3 && args[2].Eval(ctx) is { Kind: QKind.Boolean, Boolean: true };
        var length = array.ArrayLength;
        for (var i = 0; i < length; i++)
        {
            var item = array.ArrayItem(i);
            if (partial && value.Kind == QKind.Object && item.Kind == QKind.Object)
            {
                if (value.Properties().All(p => QCompare.DeepEquals(item.Property(p.Key), p.Value)))
                {
                    return QValue.True;
                }
            }
            else if (QCompare.DeepEquals(item, value))
            {
                return QValue.True;
            }
        }

        return QValue.False;
    }
}
