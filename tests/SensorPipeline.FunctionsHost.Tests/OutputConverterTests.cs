using System.Text;
using SensorPipeline.FunctionsHost.Invocation;

namespace SensorPipeline.FunctionsHost.Tests;

/// <summary>Every conversion rule of an eventHub output value (HttpScriptInvocationResultExtensions.GetBindingValue,
/// FunctionBinding.ReadAsEnumerable and BindAsyncCollectorAsync&lt;byte[]&gt;), as a table.</summary>
[Trait("Category", "Fast")]
public sealed class OutputConverterTests
{
    private static List<string> Convert(string json, bool binary = false)
    {
        using var document = JsonDocument.Parse(json);
        var events = new List<ReadOnlyMemory<byte>>();
        OutputConverter.Convert(document.RootElement, binary, events);
        return events.Select(e => Encoding.UTF8.GetString(e.Span)).ToList();
    }

    [Theory]
    [InlineData("""["a","b"]""", new[] { "a", "b" })]                                 // array → one event per element
    [InlineData("""[{"k":1},[1,2]]""", new[] { "{\n  \"k\": 1\n}", "[\n  1,\n  2\n]" })] // objects and arrays as indented JSON
    [InlineData("""[1, 2.5, true, false, null]""", new[] { "1", "2.5", "True", "False", "" })] // JToken.ToString() of values
    [InlineData("""["[\"x\"]"]""", new[] { "[\"x\"]" })]                            // elements are not split again
    [InlineData("""["AQID"]""", new[] { "AQID" })]                                   // elements are never base64-decoded
    [InlineData("""" "[\"p\",\"q\"]" """", new[] { "p", "q" })]                      // a string that looks like an array is split
    [InlineData("""" "  {\"k\":1}  " """", new[] { "{\n  \"k\": 1\n}" })]           // a string that looks like an object: one event
    [InlineData("""" "plain text!" """", new[] { "plain text!" })]                   // not base64, not JSON: its UTF-8
    [InlineData("""{"k":"v"}""", new[] { "{\n  \"k\": \"v\"\n}" })]                 // an object: one indented event
    [InlineData("42", new[] { "42" })]
    [InlineData("true", new[] { "True" })]
    [InlineData("null", new string[0])]                                               // null: the binding sends nothing
    public void Convert_NonBinaryBinding_AsTheHostConverts(string value, string[] expected) => Assert.Equal(expected, Convert(value));

    [Fact]
    public void Convert_Base64StringOnNonBinaryBinding_IsOneDecodedEvent()
    {
        using var document = JsonDocument.Parse("\"AAEC/w==\"");
        var events = new List<ReadOnlyMemory<byte>>();
        OutputConverter.Convert(document.RootElement, isBinaryBinding: false, events);
        Assert.Equal(new byte[] { 0, 1, 2, 255 }, Assert.Single(events).ToArray());
    }

    [Fact]
    public void Convert_PlainWordThatHappensToBeBase64_IsDecodedToo() =>
        // "test" is valid base64 (3 bytes): the host decodes it. Inconvenient, and exactly what Azure does.
        Assert.Equal(new byte[] { 0xB5, 0xEB, 0x2D }, ConvertBytes("\"test\"", binary: false));

    [Fact]
    public void Convert_Base64OnBinaryBinding_IsSentAsItsText() => Assert.Equal(["AAEC"], Convert("\"AAEC\"", binary: true));

    [Fact]
    public void Convert_EmptyString_IsOneEmptyEvent() => Assert.Equal([""], Convert("\"\""));

    [Fact]
    public void Convert_StringThatLooksLikeJsonButIsNot_FailsTheInvocation() =>
        Assert.Throws<OutputConversionException>(() => Convert("\"[oops]\"", binary: true));

    [Theory]
    [InlineData("[1]", true)]
    [InlineData("  {}  ", true)]
    [InlineData("[1", false)]
    [InlineData("x[1]", false)]
    public void LooksLikeJson_Text_AsTheHostsIsJson(string text, bool expected) => Assert.Equal(expected, OutputConverter.LooksLikeJson(text));

    private static byte[] ConvertBytes(string json, bool binary)
    {
        using var document = JsonDocument.Parse(json);
        var events = new List<ReadOnlyMemory<byte>>();
        OutputConverter.Convert(document.RootElement, binary, events);
        return Assert.Single(events).ToArray();
    }
}
