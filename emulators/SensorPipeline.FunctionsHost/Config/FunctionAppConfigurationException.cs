namespace SensorPipeline.FunctionsHost.Config;

/// <summary>A function app file is malformed or names something that does not exist. The message names the
/// file and the field, so start-up stops with an answer rather than a stack trace. An InvalidOperationException, so
/// the devhost program's start-up handler prints it as it prints the emulator's configuration errors.</summary>
public sealed class FunctionAppConfigurationException : InvalidOperationException
{
    public FunctionAppConfigurationException(string file, string field, string problem)
        : base($"{file}: '{field}': {problem}")
    {
        File = file;
        Field = field;
    }

    public FunctionAppConfigurationException(string file, string field, string problem, Exception innerException)
        : base($"{file}: '{field}': {problem}", innerException)
    {
        File = file;
        Field = field;
    }

    public FunctionAppConfigurationException()
    {
        File = string.Empty;
        Field = string.Empty;
    }

    public FunctionAppConfigurationException(string message)
        : base(message)
    {
        File = string.Empty;
        Field = string.Empty;
    }

    public FunctionAppConfigurationException(string message, Exception innerException)
        : base(message, innerException)
    {
        File = string.Empty;
        Field = string.Empty;
    }

    /// <summary>The file at fault (path as given).</summary>
    public string File { get; }

    /// <summary>The JSON path of the field at fault.</summary>
    public string Field { get; }
}
