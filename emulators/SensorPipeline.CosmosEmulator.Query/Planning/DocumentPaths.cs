namespace SensorPipeline.CosmosEmulator.Query.Planning;

/// <summary>What the planners read from a WHERE clause's expressions: the document path an expression reads, and the
/// operands of an AND or OR chain.</summary>
internal static class DocumentPaths
{
    /// <summary>The document path an expression reads (<c>c.a.b</c>, <c>c["a"][0]</c>), or null when it is not one.</summary>
    public static List<string>? Of(Expr expr)
    {
        switch (expr)
        {
            case RootExpr:
                return [];
            case MemberExpr member when Of(member.Target) is { } target:
                target.Add(member.Name);
                return target;
            case IndexExpr { Index: ConstantExpr constant } index when Of(index.Target) is { } target:
                if (constant.Value.Kind == QKind.String)
                {
                    target.Add(constant.Value.GetString());
                    return target;
                }

                target.Add("[]");
                return target;
            default:
                return null;
        }
    }

    /// <summary>The operands of a chain of <typeparamref name="T"/> (AND or OR), left to right, without recursing: the
    /// SDK's ReadMany chain is a thousand levels deep.</summary>
    public static List<Expr> Flatten<T>(Expr expr)
        where T : Expr
    {
        var operands = new List<Expr>();
        var pending = new Stack<Expr>();
        pending.Push(expr);
        while (pending.TryPop(out var next))
        {
            if (next is T)
            {
                foreach (var child in next.Children.Reverse())
                {
                    pending.Push(child);
                }
            }
            else
            {
                operands.Add(next);
            }
        }

        return operands;
    }
}
