using System.CommandLine;
using System.Globalization;

namespace SensorPipeline.CommandLine;

/// <summary>A loopback port option, 0 to 65535 (0: the program picks a free one and prints it).</summary>
public static class Ports
{
    public static Option<int> Option(int defaultValue, string description = "The loopback port (0: a free one, printed at start).") => new("--port")
    {
        Description = description,
        DefaultValueFactory = _ => defaultValue,
        CustomParser = result =>
        {
            var text = result.Tokens[0].Value;
            if (int.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out var port) && port <= 65535)
            {
                return port;
            }

            result.AddError($"--port: '{text}' is not a port number from 0 to 65535.");
            return 0;
        },
    };
}
