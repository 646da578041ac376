using System.CommandLine;

namespace SensorPipeline.LoadGen.Cli;

/// <summary>Wires a command to its options and its action. It is apart from <see cref="StartupValidation"/> (what a
/// command does when it runs) because it is how a command is built: one owner for the add-each-option-then-set-the-action
/// steps every command (send at the root, verify, redrive) needs, so each lists its options in help order in one place.</summary>
internal static class CommandWiring
{
    /// <summary>Gives <paramref name="command"/> its options (in help order) and its action; returns it.</summary>
    public static Command WithAction(this Command command, IEnumerable<Option> options, Func<ParseResult, CancellationToken, Task<int>> action)
    {
        ArgumentNullException.ThrowIfNull(command);
        ArgumentNullException.ThrowIfNull(options);
        foreach (var option in options)
        {
            command.Options.Add(option);
        }

        command.SetAction(action);
        return command;
    }
}
