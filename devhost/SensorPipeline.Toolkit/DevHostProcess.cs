using System.Globalization;
using System.Text.RegularExpressions;

namespace SensorPipeline.Toolkit;

/// <summary>How to start the devhost program (see <c>devhost --help</c> for the options).</summary>
public sealed record DevHostStart
{
    /// <summary>The function app's folder (host.json; eventhubs.emulator.json unless <see cref="HubsFile"/> is set).</summary>
    public required string AppRoot { get; init; }

    /// <summary>Where devhost keeps its state.</summary>
    public required string DataDirectory { get; init; }

    /// <summary>The loopback port. Default 0: devhost picks a free one and prints it.</summary>
    public int Port { get; init; }

    /// <summary>The extra plain-AMQP loopback port (<c>EventHubs:Amqp:ExtraPort</c>). Default 0: none, so parallel
    /// devhosts never contend for 5672; AMQP is served on <see cref="Port"/> anyway. The stack passes 5672.</summary>
    public int AmqpPort { get; init; }

    /// <summary>The namespace config. Default devhost's own (<c>&lt;app-root&gt;/eventhubs.emulator.json</c>).</summary>
    public string? HubsFile { get; init; }

    /// <summary>Configuration overrides, each <c>Key=Value</c>, passed as <c>--set</c>. Default none.</summary>
    public IReadOnlyList<string> Settings { get; init; } = [];

    /// <summary>Environment for devhost (and so the handler it starts). Default none added.</summary>
    public IReadOnlyDictionary<string, string?> Environment { get; init; } = new Dictionary<string, string?>();

    /// <summary>See <see cref="ChildProcessOptions.LogPath"/>.</summary>
    public string? LogPath { get; init; }

    /// <summary>See <see cref="ChildProcessOptions.Echo"/>.</summary>
    public bool Echo { get; init; }

    /// <summary>See <see cref="ChildProcessOptions.StopGracePeriod"/>. Default zero: killed with its handler at once.</summary>
    public TimeSpan StopGracePeriod { get; init; }

    /// <summary>How long start-up may take before it counts as failed. Default 60 s (a loaded machine is slow).</summary>
    public TimeSpan StartTimeout { get; init; } = TimeSpan.FromSeconds(60);

    /// <summary>See <see cref="ChildProcessOptions.StandardOutputLine"/> (the stack watches for its handler's exits).</summary>
    public Action<string>? StandardOutputLine { get; init; }
}

/// <summary>The built devhost program (Event Hubs emulator + local Functions host), started as a child process and
/// ready once it prints its listening line; disposing kills it and the handler it started.</summary>
public sealed partial class DevHostProcess : IAsyncDisposable, IDisposable
{
    /// <summary>The line devhost prints once it listens, followed by its address.</summary>
    public const string ListeningPrefix = "devhost listening on ";

    private DevHostProcess(ChildProcess process, Uri baseAddress)
    {
        Process = process;
        BaseAddress = baseAddress;
    }

    public ChildProcess Process { get; }

    /// <summary>Its address, ending in <c>/</c>.</summary>
    public Uri BaseAddress { get; }

    /// <summary>The pattern of <see cref="ListeningPrefix"/>'s line, the address in group <c>url</c>.</summary>
    public static Regex ListeningLine => Listening();

    /// <summary>Starts devhost and waits for its listening line. If it stops first, throws
    /// <see cref="ChildProcessExitedException"/> with its exit code and output.</summary>
    public static async Task<DevHostProcess> StartAsync(DevHostStart start, RepoLayout? layout = null, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(start);
        layout ??= RepoLayout.Current;
        List<string> arguments = [layout.RequireBuilt("SensorPipeline.DevHost", "SensorPipeline.DevHost.dll"),
            "--app-root", start.AppRoot, "--data", start.DataDirectory, "--port", start.Port.ToString(CultureInfo.InvariantCulture)];
        if (start.HubsFile is not null)
        {
            arguments.AddRange(["--hubs", start.HubsFile]);
        }

        arguments.AddRange(["--set", "EventHubs:Amqp:ExtraPort=" + start.AmqpPort.ToString(CultureInfo.InvariantCulture)]);
        foreach (var setting in start.Settings)
        {
            arguments.AddRange(["--set", setting]);
        }

        var environment = new Dictionary<string, string?>(start.Environment) { ["DOTNET_NOLOGO"] = "1" };
        return await StartReadyAsync(new ChildProcessOptions
        {
            Name = "devhost",
            FileName = "dotnet",
            Arguments = arguments,
            Environment = environment,
            WorkingDirectory = layout.Root,
            LogPath = start.LogPath,
            Echo = start.Echo,
            StopGracePeriod = start.StopGracePeriod,
            StandardOutputLine = start.StandardOutputLine,
        }, start.StartTimeout, cancellationToken);
    }

    /// <summary>Starts a devhost process (the full one or an instance) and waits for its listening line; disposes it
    /// when the line does not come.</summary>
    private static async Task<DevHostProcess> StartReadyAsync(ChildProcessOptions options, TimeSpan timeout, CancellationToken cancellationToken)
    {
        var process = ChildProcess.Start(options);
        try
        {
            var url = await process.WaitForUrlAsync(Listening(), timeout, cancellationToken);
            return new DevHostProcess(process, new Uri(url.AbsoluteUri.TrimEnd('/') + "/"));
        }
        catch
        {
            await process.DisposeAsync();
            throw;
        }
    }

    /// <summary>Runs devhost with <paramref name="arguments"/> to its exit (a start-up failure, <c>devhost status</c>).</summary>
    public static Task<ChildProcess> RunAsync(IEnumerable<string> arguments, TimeSpan timeout, RepoLayout? layout = null)
    {
        layout ??= RepoLayout.Current;
        return ChildProcess.RunAsync(new ChildProcessOptions
        {
            Name = "devhost",
            FileName = "dotnet",
            Arguments = [layout.RequireBuilt("SensorPipeline.DevHost", "SensorPipeline.DevHost.dll"), .. arguments],
            Environment = new Dictionary<string, string?> { ["DOTNET_NOLOGO"] = "1" },
            WorkingDirectory = layout.Root,
        }, timeout);
    }

    public ValueTask DisposeAsync() => Process.DisposeAsync();

    public void Dispose() => Process.Dispose();

    [GeneratedRegex(@"devhost listening on (?<url>\S+)")]
    private static partial Regex Listening();
}
