using Spectre.Console;

namespace SensorPipeline.LoadGen.Cli;

/// <summary>Writes a summary table to a terminal in colour, or to a log or script as plain text.</summary>
internal static class TableOutput
{
    public static void Write(Table table, TextWriter output)
    {
        ArgumentNullException.ThrowIfNull(table);
        ArgumentNullException.ThrowIfNull(output);
        var redirected = Console.IsOutputRedirected;
        var console = AnsiConsole.Create(new AnsiConsoleSettings
        {
            Out = new AnsiConsoleOutput(output),
            // Redirected (a log, the demo script): plain text, no escape codes.
            Ansi = redirected ? AnsiSupport.No : AnsiSupport.Detect,
            ColorSystem = redirected ? ColorSystemSupport.NoColors : ColorSystemSupport.Detect,
        });
        if (redirected)
        {
            console.Profile.Width = 160; // redirected output has no width; 80 would wrap the table
        }

        console.Write(table);
    }
}
