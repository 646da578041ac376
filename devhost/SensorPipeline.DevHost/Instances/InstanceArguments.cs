namespace SensorPipeline.DevHost.Instances;

/// <summary>The command line of one Functions-host instance in its own process:
/// <c>devhost instance --devhost http://127.0.0.1:PORT --app-root &lt;dir&gt; --data &lt;dir&gt; --instance-id ID
/// [--function Name[,Name…]] [--port N] [--set Key=Value]…</c>. The instance serves its own
/// <c>/status/functions</c> on <c>--port</c> (default 0: a free one).</summary>
/// <param name="DevHost">The devhost serving the hubs (its internal API).</param>
/// <param name="Host">The host part: app root, data directory (shared with every instance: checkpoints and ownership),
/// port and settings.</param>
/// <param name="InstanceId">The owner id in ownership records.</param>
/// <param name="Functions">The functions it runs (comma-separated; empty: all).</param>
public sealed record InstanceArguments(Uri DevHost, DevHostArguments Host, string InstanceId, string Functions)
{
    public const string Usage =
        "usage: devhost instance --devhost http://127.0.0.1:PORT --app-root <dir> --data <dir> --instance-id ID [--function Name[,Name...]] [--port N] [--set Key=Value]...";

    public static InstanceArguments? Parse(IReadOnlyList<string> args, out string? error)
    {
        if (CommandLine.Parse(args, ["--devhost", "--app-root", "--data", "--instance-id", "--function"], Usage, out error) is not { } line)
        {
            return null;
        }

        if (line["--devhost"] is not { } url || !Uri.TryCreate(url.EndsWith('/') ? url : url + "/", UriKind.Absolute, out var devhost) || !devhost.IsLoopback)
        {
            error = $"--devhost: a loopback URL like http://127.0.0.1:7071 is required.\n{Usage}";
            return null;
        }

        if (line["--app-root"] is not { } appRoot || line["--data"] is not { } data || line["--instance-id"] is not { Length: > 0 } instanceId)
        {
            error = $"--app-root, --data and --instance-id are required.\n{Usage}";
            return null;
        }

        if (DevHostArguments.ExistingAppRoot(appRoot, out error) is not { } root)
        {
            return null;
        }

        var host = new DevHostArguments(root, Path.GetFullPath(data), line.Port ?? 0, Path.Combine(root, "eventhubs.emulator.json"), line.Settings);
        return new InstanceArguments(devhost, host, instanceId, line["--function"] ?? string.Empty);
    }
}
