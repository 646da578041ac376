namespace SensorPipeline.CosmosEmulator.Query.Tests;

/// <summary>Scalar semantics, each checked by evaluating <c>SELECT VALUE expr</c> over one document.</summary>
public class ExpressionTests
{
    private const string Doc = """{"n":5,"s":"Hello","b":true,"z":null,"arr":[1,"two",{"k":3}],"o":{"a":1,"b":[2]},"neg":-2.5}""";

    private static string? Eval(string expr)
    {
        var items = Run.Query($"SELECT VALUE {expr} FROM c", [Doc]);
        return items.Count == 0 ? null : Assert.Single(items); // null: undefined
    }

    [Theory]
    [InlineData("c.n = 5", "true")]
    [InlineData("c.n != 5", "false")]
    [InlineData("c.n <> 4", "true")]
    [InlineData("c.n < 5.5", "true")]
    [InlineData("c.n >= 5", "true")]
    [InlineData("c.s > 'Hallo'", "true")]
    [InlineData("c.s < 'hello'", "true")] // ordinal: 'H' < 'h'
    [InlineData("c.b = true", "true")]
    [InlineData("c.z = null", "true")]
    [InlineData("c.o = {\"a\": 1, \"b\": [2]}", "true")]
    [InlineData("c.o = {\"b\": [2], \"a\": 1}", "true")]
    [InlineData("c.arr = [1, 'two', {k: 3}]", "true")]
    [InlineData("c.arr = [1, 'two']", "false")]
    public void Eval_ComparisonOfTheSameType_ComparesValues(string expr, string expected) => Assert.Equal(expected, Eval(expr));

    [Theory]
    [InlineData("c.n = '5'")]
    [InlineData("c.n < 'x'")]
    [InlineData("c.z < 1")]
    [InlineData("c.b > 0")]
    [InlineData("c.missing = 1")]
    [InlineData("c.missing = c.missing2")]
    [InlineData("c.n != '5'")]
    [InlineData("c.o < c.o")]
    [InlineData("c.arr > [0]")]
    public void Comparisons_AcrossTypesOrWithUndefined_AreUndefined(string expr) => Assert.Null(Eval(expr));

    [Theory]
    [InlineData("true AND true", "true")]
    [InlineData("true AND false", "false")]
    [InlineData("false AND c.missing", "false")]
    [InlineData("c.missing AND false", "false")]
    [InlineData("true AND c.missing", null)]
    [InlineData("true AND 1", null)]
    [InlineData("true OR c.missing", "true")]
    [InlineData("c.missing OR true", "true")]
    [InlineData("false OR c.missing", null)]
    [InlineData("false OR false", "false")]
    [InlineData("NOT false", "true")]
    [InlineData("NOT c.missing", null)]
    [InlineData("NOT 'x'", null)]
    [InlineData("NOT c.n = 4", "true")]
    public void Eval_LogicWithUndefined_ThreeValued(string expr, string? expected) => Assert.Equal(expected, Eval(expr));

    [Theory]
    [InlineData("c.n + 1", "6")]
    [InlineData("c.n - 7", "-2")]
    [InlineData("c.n * c.neg", "-12.5")]
    [InlineData("c.n / 2", "2.5")]
    [InlineData("c.n % 3", "2")]
    [InlineData("-c.n", "-5")]
    [InlineData("1 + 2 * 3", "7")]
    [InlineData("(1 + 2) * 3", "9")]
    [InlineData("c.n + '1'", null)]
    [InlineData("c.n / 0", null)]
    [InlineData("c.s || ' world'", "\"Hello world\"")]
    [InlineData("c.s || 1", null)]
    [InlineData("c.b ? 'y' : 'n'", "\"y\"")]
    [InlineData("c.missing ?? 'default'", "\"default\"")]
    [InlineData("c.z ?? 'default'", "null")]
    public void Eval_ArithmeticAndStringOperators_ComputedOrUndefined(string expr, string? expected) => Assert.Equal(expected, Eval(expr));

    [Theory]
    [InlineData("c.n IN (1, 5, 9)", "true")]
    [InlineData("c.n IN (1, 2)", "false")]
    [InlineData("c.n NOT IN (1, 2)", "true")]
    [InlineData("c.n IN ('5')", "false")]
    [InlineData("c.missing IN (1)", null)]
    [InlineData("c.n BETWEEN 1 AND 5", "true")]
    [InlineData("c.n BETWEEN 6 AND 9", "false")]
    [InlineData("c.n NOT BETWEEN 6 AND 9", "true")]
    [InlineData("c.s BETWEEN 'A' AND 'Z'", "true")]
    [InlineData("c.n BETWEEN 'a' AND 'z'", null)]
    public void Eval_InAndBetween_TrueFalseOrUndefined(string expr, string? expected) => Assert.Equal(expected, Eval(expr));

    [Theory]
    [InlineData("c.arr[0]", "1")]
    [InlineData("c.arr[2].k", "3")]
    [InlineData("c.arr[9]", null)]
    [InlineData("c.o['b'][0]", "2")]
    [InlineData("c['o'].a", "1")]
    [InlineData("c.s.length", null)]
    [InlineData("c.n[0]", null)]
    public void Eval_PropertyPath_ValueOrUndefined(string expr, string? expected) => Assert.Equal(expected, Eval(expr));

    [Theory]
    [InlineData("IS_DEFINED(c.n)", "true")]
    [InlineData("IS_DEFINED(c.missing)", "false")]
    [InlineData("IS_NULL(c.z)", "true")]
    [InlineData("IS_NULL(c.missing)", "false")]
    [InlineData("IS_NUMBER(c.n)", "true")]
    [InlineData("IS_NUMBER(c.s)", "false")]
    [InlineData("IS_STRING(c.s)", "true")]
    [InlineData("IS_BOOL(c.b)", "true")]
    [InlineData("IS_ARRAY(c.arr)", "true")]
    [InlineData("IS_OBJECT(c.o)", "true")]
    [InlineData("is_defined(c.n)", "true")]
    [InlineData("STARTSWITH(c.s, 'He')", "true")]
    [InlineData("STARTSWITH(c.s, 'he')", "false")]
    [InlineData("STARTSWITH(c.s, 'he', true)", "true")]
    [InlineData("ENDSWITH(c.s, 'llo')", "true")]
    [InlineData("CONTAINS(c.s, 'ell')", "true")]
    [InlineData("CONTAINS(c.s, 'ELL', true)", "true")]
    [InlineData("CONTAINS(c.n, '5')", null)]
    [InlineData("LOWER(c.s)", "\"hello\"")]
    [InlineData("UPPER(c.s)", "\"HELLO\"")]
    [InlineData("LENGTH(c.s)", "5")]
    [InlineData("LENGTH(c.n)", null)]
    [InlineData("ABS(c.neg)", "2.5")]
    [InlineData("ABS(c.s)", null)]
    [InlineData("ARRAY_LENGTH(c.arr)", "3")]
    [InlineData("ARRAY_LENGTH(c.o)", null)]
    [InlineData("ARRAY_CONTAINS(c.arr, 'two')", "true")]
    [InlineData("ARRAY_CONTAINS(c.arr, {\"k\": 3})", "true")]
    [InlineData("ARRAY_CONTAINS(c.arr, 2)", "false")]
    [InlineData("ARRAY_CONTAINS([{\"a\":1,\"b\":2}], {\"a\":1})", "false")]
    [InlineData("ARRAY_CONTAINS([{\"a\":1,\"b\":2}], {\"a\":1}, true)", "true")]
    public void Eval_BuiltInFunction_AsTheServiceAnswers(string expr, string? expected) => Assert.Equal(expected, Eval(expr));

    [Fact]
    public void Eval_StringLiteralWithEscapes_Decoded()
    {
        Assert.Equal("\"it's \\\"q\\\" é\\n\"", Eval("'it\\'s \"q\" \\u00e9\\n'"));
    }

    [Fact]
    public void Eval_UndefinedInsideAnObject_LeftOut()
    {
        Assert.Equal("""{"a":5}""", Eval("{a: c.n, b: c.missing}"));
    }
}
