using System.Globalization;

namespace SensorPipeline.Toolkit;

/// <summary>How to start one Functions-host instance in its own process (<c>devhost instance</c>) against a running
/// devhost's hubs.</summary>
public sealed record DevHostInstanceStart
{
    /// <summary>The devhost serving the hubs.</summary>
    public required Uri DevHost { get; init; }

    /// <summary>The function app's folder (host.json).</summary>
    public required string AppRoot { get; init; }

    /// <summary>The data directory (the handler's pid file; ownership and checkpoints are blobs in the app's AzureWebJobsStorage).</summary>
    public required string DataDirectory { get; init; }

    /// <summary>The instance's owner id.</summary>
    public required string InstanceId { get; init; }

    /// <summary>Comma-separated functions it runs. Default empty: all.</summary>
    public string Functions { get; init; } = string.Empty;

    /// <summary>Configuration overrides (<c>Key=Value</c>, passed as <c>--set</c>). Default none.</summary>
    public IReadOnlyList<string> Settings { get; init; } = [];

    /// <summary>Environment for the instance and its handler. Default none added.</summary>
    public IReadOnlyDictionary<string, string?> Environment { get; init; } = new Dictionary<string, string?>();

    /// <summary>See <see cref="ChildProcessOptions.LogPath"/>.</summary>
    public string? LogPath { get; init; }

    /// <summary>See <see cref="ChildProcessOptions.StopGracePeriod"/>. Default zero.</summary>
    public TimeSpan StopGracePeriod { get; init; }

    /// <summary>How long start-up (handler included) may take. Default 60 s.</summary>
    public TimeSpan StartTimeout { get; init; } = TimeSpan.FromSeconds(60);
}

public sealed partial class DevHostProcess
{
    /// <summary>Starts <c>devhost instance</c> and waits for its listening line (its own status endpoint); the
    /// process tree is the instance and its handler, so <c>KillAsync()</c> is a kill -9 of both.</summary>
    public static async Task<DevHostProcess> StartInstanceAsync(DevHostInstanceStart start, RepoLayout? layout = null, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(start);
        layout ??= RepoLayout.Current;
        List<string> arguments = [layout.RequireBuilt("SensorPipeline.DevHost", "SensorPipeline.DevHost.dll"), "instance",
            "--devhost", start.DevHost.ToString(), "--app-root", start.AppRoot, "--data", start.DataDirectory,
            "--instance-id", start.InstanceId, "--port", 0.ToString(CultureInfo.InvariantCulture)];
        if (start.Functions.Length > 0)
        {
            arguments.AddRange(["--function", start.Functions]);
        }

        foreach (var setting in start.Settings)
        {
            arguments.AddRange(["--set", setting]);
        }

        return await StartReadyAsync(new ChildProcessOptions
        {
            Name = "instance " + start.InstanceId,
            FileName = "dotnet",
            Arguments = arguments,
            Environment = new Dictionary<string, string?>(start.Environment) { ["DOTNET_NOLOGO"] = "1" },
            WorkingDirectory = layout.Root,
            LogPath = start.LogPath,
            StopGracePeriod = start.StopGracePeriod,
        }, start.StartTimeout, cancellationToken);
    }
}
