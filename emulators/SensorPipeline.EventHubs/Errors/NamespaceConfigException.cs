namespace SensorPipeline.EventHubs;

/// <summary>The namespace config file is malformed; the message names the file and the field.</summary>
public sealed class NamespaceConfigException : Exception
{
    public NamespaceConfigException() { }
    public NamespaceConfigException(string message) : base(message) { }
    public NamespaceConfigException(string message, Exception innerException) : base(message, innerException) { }

    public NamespaceConfigException(string file, string field, string problem, Exception? innerException = null)
        : base($"{file}: {field}: {problem}", innerException)
    {
        File = file;
        Field = field;
    }

    public string? File { get; }

    public string? Field { get; }
}
