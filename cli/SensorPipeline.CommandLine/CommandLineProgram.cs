using System.CommandLine;

namespace SensorPipeline.CommandLine;

/// <summary>
/// The one way a program of the repository runs its command line: a usage error prints <c>NAME: message</c> for each
/// (the message names the option) and where the help is, and exits <see cref="ExitCodes.Usage"/> with nothing run;
/// <c>--help</c> prints every option and exits <see cref="ExitCodes.Ok"/>; otherwise the chosen command's action runs
/// and its code is the exit code.
/// </summary>
public static class CommandLineProgram
{
    /// <summary>
    /// For a program whose own host handles SIGTERM and Ctrl+C (an ASP.NET Core server's console lifetime, or a
    /// handler of its own): System.CommandLine's termination handler is off. Left on, it ends the process with exit
    /// code 143 two seconds after SIGTERM, cutting short a graceful shutdown that a loaded machine takes longer than
    /// that to finish (stopping a child handler, flushing a store); the host's own shutdown timeout bounds it instead.
    /// </summary>
    public static InvocationConfiguration HostHandlesTermination() => new() { ProcessTerminationTimeout = null };

    /// <summary>Parses <paramref name="args"/> against <paramref name="root"/> and runs it (see the class); usage errors
    /// go to <paramref name="configuration"/>'s error writer (default stderr), prefixed <paramref name="name"/>.
    /// <paramref name="configuration"/>: how the action is invoked; default: Ctrl+C cancels the action's token and the
    /// process ends 2 s later if the action has not returned.</summary>
    public static async Task<int> RunAsync(string name, RootCommand root, IReadOnlyList<string> args, InvocationConfiguration? configuration = null)
    {
        ArgumentNullException.ThrowIfNull(root);
        ArgumentNullException.ThrowIfNull(args);
        var parse = root.Parse(args);
        return Refused(name, parse, configuration) ?? await parse.InvokeAsync(configuration ?? new InvocationConfiguration());
    }

    /// <summary>As <see cref="RunAsync"/>, for a program whose actions are synchronous.</summary>
    public static int Run(string name, RootCommand root, IReadOnlyList<string> args, InvocationConfiguration? configuration = null)
    {
        ArgumentNullException.ThrowIfNull(root);
        ArgumentNullException.ThrowIfNull(args);
        var parse = root.Parse(args);
        return Refused(name, parse, configuration) ?? parse.Invoke(configuration ?? new InvocationConfiguration());
    }

    /// <summary>Adds <paramref name="options"/> to <paramref name="command"/> in help order; returns it.</summary>
    public static T With<T>(this T command, params Option[] options)
        where T : Command
    {
        ArgumentNullException.ThrowIfNull(command);
        ArgumentNullException.ThrowIfNull(options);
        foreach (var option in options)
        {
            command.Options.Add(option);
        }

        return command;
    }

    /// <summary>
    /// A wrong command line that only shows once the options are read together (one option against another: a
    /// command's validators see an option left out as its type's default, not the option's): printed as a parse error
    /// is, <c>NAME: message</c> and where the help is; returns <see cref="ExitCodes.Usage"/> for the action to return
    /// before it runs anything.
    /// </summary>
    public static int UsageError(string name, string message, TextWriter? error = null)
    {
        error ??= Console.Error;
        error.WriteLine($"{name}: {message}");
        error.WriteLine($"{name}: see '{name} --help' for every option.");
        return ExitCodes.Usage;
    }

    /// <summary><see cref="ExitCodes.Usage"/> after printing each error, or null when the line parsed.</summary>
    private static int? Refused(string name, ParseResult parse, InvocationConfiguration? configuration)
    {
        if (parse.Errors.Count == 0)
        {
            return null;
        }

        var error = configuration?.Error ?? Console.Error;
        foreach (var problem in parse.Errors.SkipLast(1))
        {
            error.WriteLine($"{name}: {problem.Message}");
        }

        return UsageError(name, parse.Errors[^1].Message, error);
    }
}
