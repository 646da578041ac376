using System.Globalization;
using FsCheck;
using FsCheck.Fluent;

namespace SensorPipeline.CosmosEmulator.Query.Tests;

/// <summary>WHERE filters agree with a small reference evaluator written straight from the documented rules
/// (comparison across types or with a missing property is undefined; AND/OR/NOT are three-valued; a row matches only
/// when the condition is true) on random documents and random conditions.</summary>
public class WherePropertyTests
{
    private static readonly object Missing = new();

    private static readonly string[] Fields = ["a", "b"];

    private static readonly object?[] Values = [Missing, null, true, false, -2, 0, 1, 3, "a", "b", "B"];

    private static readonly string[] Operators = ["=", "!=", "<", "<=", ">", ">="];

    [Fact]
    public void Where_RandomConditions_AgreesWithTheReferenceEvaluation()
    {
        var documentGen =
            from a in Gen.Elements(Values)
            from b in Gen.Elements(Values)
            select new Dictionary<string, object?> { ["a"] = a, ["b"] = b };
        var gen =
            from documents in Gen.ListOf(documentGen, 12)
            from condition in Condition(3)
            select (documents.ToList(), condition);

        Prop.ForAll(gen.ToArbitrary(), t =>
        {
            var (documents, condition) = t;
            var json = documents.Select((d, i) => ToJson(i, d)).ToList();
            var actual = Run.Query($"SELECT VALUE c.id FROM c WHERE {condition.Sql}", json);
            var expected = documents
                .Select((d, i) => (d, i))
                .Where(x => condition.Eval(x.d) == true)
                .Select(x => x.i.ToString(CultureInfo.InvariantCulture))
                .ToList();
            return actual.SequenceEqual(expected)
                .Label($"WHERE {condition.Sql} over {string.Join(", ", json)}: got [{string.Join(",", actual)}], expected [{string.Join(",", expected)}]");
        }).QuickCheckThrowOnFailure();
    }

    private sealed record Cond(string Sql, Func<Dictionary<string, object?>, bool?> Eval);

    private static Gen<Cond> Condition(int depth)
    {
        var leaf = Gen.OneOf(Comparison(), IsDefined(), In(), Between());
        if (depth == 0)
        {
            return leaf;
        }

        var sub = Condition(depth - 1);
        return Gen.OneOf(
            leaf,
            from l in sub
            from r in sub
            select new Cond($"({l.Sql} AND {r.Sql})", d => And(l.Eval(d), r.Eval(d))),
            from l in sub
            from r in sub
            select new Cond($"({l.Sql} OR {r.Sql})", d => Or(l.Eval(d), r.Eval(d))),
            from x in sub
            select new Cond($"(NOT {x.Sql})", d => x.Eval(d) is { } v ? !v : null));
    }

    private static Gen<Cond> Comparison() =>
        from field in Gen.Elements(Fields)
        from op in Gen.Elements(Operators)
        from literal in Gen.Elements(Values.Where(v => v != Missing).ToArray())
        select new Cond($"c.{field} {op} {Literal(literal)}", d => Compare(d[field], op, literal));

    private static Gen<Cond> IsDefined() =>
        from field in Gen.Elements(Fields)
        select new Cond($"IS_DEFINED(c.{field})", d => d[field] != Missing);

    private static Gen<Cond> In() =>
        from field in Gen.Elements(Fields)
        from items in Gen.SubListOf(Values.Where(v => v != Missing).ToArray())
        where items.Count > 0
        select new Cond(
            $"c.{field} IN ({string.Join(", ", items.Select(Literal))})",
            d => d[field] == Missing ? null : items.Any(i => Compare(d[field], "=", i) == true));

    private static Gen<Cond> Between() =>
        from field in Gen.Elements(Fields)
        from low in Gen.Elements(Values.Where(v => v != Missing).ToArray())
        from high in Gen.Elements(Values.Where(v => v != Missing).ToArray())
        select new Cond(
            $"c.{field} BETWEEN {Literal(low)} AND {Literal(high)}",
            d => Compare(d[field], ">=", low) is { } fromLow && Compare(d[field], "<=", high) is { } toHigh ? fromLow && toHigh : null);

    private static bool? And(bool? a, bool? b) => a == false || b == false ? false : a == true && b == true ? true : null;

    private static bool? Or(bool? a, bool? b) => a == true || b == true ? true : a == false && b == false ? false : null;

    private static bool? Compare(object? x, string op, object? y)
    {
        if (x == Missing || y == Missing || TypeOf(x) != TypeOf(y))
        {
            return null;
        }

        var order = (x, y) switch
        {
            (null, null) => 0,
            (bool p, bool q) => p.CompareTo(q),
            (int p, int q) => p.CompareTo(q),
            (string p, string q) => string.CompareOrdinal(p, q),
            _ => throw new InvalidOperationException(),
        };
        return op switch
        {
            "=" => order == 0,
            "!=" => order != 0,
            "<" => order < 0,
            "<=" => order <= 0,
            ">" => order > 0,
            _ => order >= 0,
        };
    }

    private static string TypeOf(object? value) => value switch
    {
        null => "null",
        bool => "bool",
        int => "number",
        string => "string",
        _ => "undefined",
    };

    private static string Literal(object? value) => value switch
    {
        null => "null",
        bool b => b ? "true" : "false",
        int i => i.ToString(CultureInfo.InvariantCulture),
        string s => $"'{s}'",
        _ => throw new InvalidOperationException(),
    };

    private static string ToJson(int id, Dictionary<string, object?> document)
    {
        var fields = document.Where(p => p.Value != Missing).Select(p => $",\"{p.Key}\":{Literal(p.Value).Replace('\'', '"')}");
        return $"{{\"id\":{id}{string.Concat(fields)}}}";
    }
}
