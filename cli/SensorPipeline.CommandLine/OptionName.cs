using System.CommandLine.Parsing;

namespace SensorPipeline.CommandLine;

/// <summary>The name an error message gives a value: its option's (<c>--rate</c>), else its argument's.</summary>
internal static class OptionName
{
    public static string Of(ArgumentResult result) => result.Parent is OptionResult option ? option.Option.Name : result.Argument.Name;
}
