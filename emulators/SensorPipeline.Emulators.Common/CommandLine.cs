using System.Globalization;

namespace SensorPipeline.Emulators.Common;

/// <summary>
/// The command line both local stand-ins share: <c>--name value</c> pairs, where <c>--port N</c> (0 to 65535) and the
/// repeatable <c>--set Key=Value</c> (any configuration key, as environment variables with <c>__</c> set it) are
/// common and the other names are the program's own. Messages name the flag.
/// </summary>
public sealed class CommandLine
{
    private readonly Dictionary<string, string> _values;

    private CommandLine(Dictionary<string, string> values, int? port, Dictionary<string, string?> settings)
    {
        _values = values;
        Port = port;
        Settings = settings;
    }

    /// <summary>The <c>--port</c> given, or null.</summary>
    public int? Port { get; }

    /// <summary>Configuration overrides from <c>--set</c>; keys compared without case, as configuration does.</summary>
    public IReadOnlyDictionary<string, string?> Settings { get; }

    /// <summary>The value of one of the program's own options, or null when it was not given.</summary>
    public string? this[string option] => _values.GetValueOrDefault(option);

    /// <summary>Parses <paramref name="args"/>, accepting <paramref name="options"/> besides <c>--port</c> and
    /// <c>--set</c>; on failure returns null and a message for stderr (with <paramref name="usage"/> when the line's
    /// shape is wrong).</summary>
    public static CommandLine? Parse(IReadOnlyList<string> args, IReadOnlyCollection<string> options, string usage, out string? error)
    {
        ArgumentNullException.ThrowIfNull(args);
        ArgumentNullException.ThrowIfNull(options);
        var values = new Dictionary<string, string>(StringComparer.Ordinal);
        int? port = null;
        var settings = new Dictionary<string, string?>(StringComparer.OrdinalIgnoreCase);
        for (var i = 0; i < args.Count; i++)
        {
            var name = args[i];
            if (i + 1 >= args.Count)
            {
                error = $"{name}: a value is missing.\n{usage}";
                return null;
            }

            var value = args[++i];
            switch (name)
            {
                case "--port":
                    if (!int.TryParse(value, NumberStyles.None, CultureInfo.InvariantCulture, out var number) || number > 65535)
                    {
                        error = $"--port: '{value}' is not a port number from 0 to 65535.";
                        return null;
                    }

                    port = number;
                    break;
                case "--set":
                    var eq = value.IndexOf('=', StringComparison.Ordinal);
                    if (eq <= 0)
                    {
                        error = $"--set: '{value}' is not Key=Value.";
                        return null;
                    }

                    settings[value[..eq]] = value[(eq + 1)..];
                    break;
                default:
                    if (!options.Contains(name))
                    {
                        error = $"unknown option '{name}'.\n{usage}";
                        return null;
                    }

                    values[name] = value;
                    break;
            }
        }

        error = null;
        return new CommandLine(values, port, settings);
    }
}
