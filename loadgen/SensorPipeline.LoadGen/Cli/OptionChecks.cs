namespace SensorPipeline.LoadGen.Cli;

/// <summary>Start-up checks of single option values that more than one command's validator makes; each message names
/// the option.</summary>
internal static class OptionChecks
{
    /// <summary>Adds "must not be empty" for each blank name (a database, container or hub).</summary>
    public static void NotEmpty(List<string> failures, params (string Option, string Value)[] names)
    {
        ArgumentNullException.ThrowIfNull(failures);
        ArgumentNullException.ThrowIfNull(names);
        foreach (var (option, value) in names)
        {
            if (string.IsNullOrWhiteSpace(value))
            {
                failures.Add(option + " must not be empty.");
            }
        }
    }
}
