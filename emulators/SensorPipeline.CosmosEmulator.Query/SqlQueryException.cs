namespace SensorPipeline.CosmosEmulator.Query;

/// <summary>A query the engine cannot run: a syntax error, an unsupported construct or a missing parameter.
/// <see cref="Exception.Message"/> is written for the body of the 400 answer: it names the construct and, for syntax,
/// the position (1-based line and column) in the query text.</summary>
public sealed class SqlQueryException : Exception
{
    public SqlQueryException()
    {
    }

    public SqlQueryException(string message)
        : base(message)
    {
    }

    public SqlQueryException(string message, Exception innerException)
        : base(message, innerException)
    {
    }

    internal static SqlQueryException At(string text, int position, string message)
    {
        var line = 1;
        var column = 1;
        for (var i = 0; i < position && i < text.Length; i++)
        {
            if (text[i] == '\n')
            {
                line++;
                column = 1;
            }
            else
            {
                column++;
            }
        }

        return new SqlQueryException($"{message} (at line {line}, column {column}).");
    }
}
