using System.CommandLine;
using System.Globalization;
using Microsoft.Azure.Cosmos;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using SensorPipeline.CommandLine;
using SensorPipeline.Core.Readings;
using SensorPipeline.LoadGen.Redrive;
using SensorPipeline.Redrive;
using SensorPipeline.LoadGen.Sending;
using SensorPipeline.LoadGen.Store;

namespace SensorPipeline.LoadGen.Cli;

/// <summary><c>loadgen redrive</c>: re-sends chosen dead letters to the hub they came from and marks them
/// (see <see cref="RedriveOptions"/> and <see cref="DeadLetterRedriver"/>).</summary>
internal static class RedriveCommand
{
    private static readonly Option<string?> Connection = SharedOptions.Connection();
    private static readonly Option<string?> Namespace = SharedOptions.Namespace();
    private static readonly Option<string?> IngestionHub = new("--ingestion-hub") { Description = "The splitter's hub (default: env IngestionHubName, else ingestion)." };
    // One per kind of sensor-kinds.json: --weather-hub, …
    private static readonly Option<string?>[] KindHubs = [.. SensorKindCatalog.Default.All.Select(static k =>
        new Option<string?>($"--{k.Name}-hub") { Description = $"The {k.Name} processor's hub (default: env {k.HubSetting}, else {k.Hub})." })];
    private static readonly CosmosAccountCommandLine Cosmos = new();
    private static readonly Option<string[]> Reason = new("--reason") { Description = "Reason code to select (repeatable), e.g. invalid-observed-at." };
    private static readonly Option<DateTimeOffset?> Since = new("--since") { Description = "Only dead letters stored at or after this time (ISO 8601, UTC unless an offset is given).", CustomParser = r => Time(r) };
    private static readonly Option<DateTimeOffset?> Until = new("--until") { Description = "Only dead letters stored before this time (ISO 8601).", CustomParser = r => Time(r) };
    private static readonly Option<string[]> Id = new("--id") { Description = "Dead letter id (repeatable)." };
    private static readonly Option<bool> DryRun = new("--dry-run") { Description = "List what would be sent; send and mark nothing." };
    private static readonly Option<bool> Again = new("--again") { Description = "Also re-send dead letters already marked re-driven." };
    private static readonly Option<int> MaxAttempts = SharedOptions.MaxAttempts();

    public static Command Create() =>
        new Command("redrive", "Re-sends chosen dead letters' original bytes to the hub they came from and marks them re-driven (never deletes them).")
            .WithAction([Connection, Namespace, IngestionHub, .. KindHubs, .. Cosmos.Account, Cosmos.DeadLetters, Reason, Since, Until, Id, DryRun, Again, MaxAttempts], RunAsync);

    private static Task<int> RunAsync(ParseResult parse, CancellationToken cancellationToken) =>
        StartupValidation.RunAsync<RedriveOptions, RedriveOptionsValidator>(o => Bind(parse, o), verbose: false,
            (provider, options) => RedriveAsync(provider, options, cancellationToken));

    private static async Task<int> RedriveAsync(IServiceProvider provider, RedriveOptions options, CancellationToken cancellationToken)
    {
        var time = provider.GetRequiredService<TimeProvider>();
        var logger = provider.GetRequiredService<ILoggerFactory>().CreateLogger("loadgen");
        // One request at a time: the selection, then each dead letter sent and marked in turn.
        using var client = CosmosAccountClient.Create(options, "sensorpipeline-loadgen-redrive", requestsInFlight: 1);
        var senders = new Dictionary<RedriveHub, (EventSender Sender, IAuthorizationSource Authorization)>();
        try
        {
            var settings = new SenderSettings(1, options.MaxAttempts, TimeSpan.FromMilliseconds(100), TimeSpan.FromSeconds(5), TimeSpan.FromSeconds(30));
            var selection = options.ToSelection();
            var redriver = new DeadLetterRedriver(client.GetDatabase(options.Database).GetContainer(options.DeadLettersContainer), SenderFor, selection, time);
            RedriveSend SenderFor(RedriveHub hub)
            {
                if (!senders.TryGetValue(hub, out var sender))
                {
                    var (baseAddress, authorization) = SendCommand.Authorization(options.Connection, options.Namespace, selection.HubName(hub), time);
                    sender = (new EventSender(EventSender.MessagesUriFor(baseAddress, selection.HubName(hub)), authorization, settings, time, logger), authorization);
                    senders[hub] = sender;
                }

                var rest = sender.Sender;
                return async (body, ct) =>
                {
                    var outcome = await rest.SendAsync(body, ct);
                    return outcome.Status == SendStatus.Sent ? null : $"({outcome.StatusCode}): {outcome.Detail}";
                };
            }

            IReadOnlyList<RedriveLine> lines;
            try
            {
                lines = await redriver.RunAsync(cancellationToken);
            }
            catch (Exception e) when (e is RedriveException or CosmosException or HttpRequestException)
            {
                await Console.Error.WriteLineAsync("loadgen redrive: cannot read the dead letters: " + e.Message);
                return ExitCodes.NoVerdict;
            }

            Print(lines, options, Console.Out);
            return lines.Any(l => l.Action == RedriveAction.Failed) ? ExitCodes.Failed : ExitCodes.Ok;
        }
        finally
        {
            foreach (var (sender, authorization) in senders.Values)
            {
                sender.Dispose();
                (authorization as IDisposable)?.Dispose();
            }
        }
    }

    private static void Print(IReadOnlyList<RedriveLine> lines, RedriveOptions options, TextWriter output)
    {
        var inv = CultureInfo.InvariantCulture;
        foreach (var line in lines)
        {
            var action = line.Action switch
            {
                RedriveAction.Sent => "sent",
                RedriveAction.WouldSend => "would send",
                RedriveAction.Skipped => "skipped",
                _ => "FAILED",
            };
            output.WriteLine(string.Create(inv, $"{action,-10} {line.Id}  {line.Reason}  dead-lettered {line.DeadLetteredAt?.UtcDateTime.ToString("yyyy-MM-dd HH:mm:ss", inv) ?? "-"}  {line.Detail}"));
        }

        int Count(RedriveAction a) => lines.Count(l => l.Action == a);
        output.WriteLine(string.Create(inv, $"redrive{(options.DryRun ? " (dry run)" : "")}: {lines.Count} selected, {Count(RedriveAction.Sent)} sent, {Count(RedriveAction.WouldSend)} would be sent, {Count(RedriveAction.Skipped)} skipped, {Count(RedriveAction.Failed)} failed"));
    }

    private static void Bind(ParseResult parse, RedriveOptions o)
    {
        (o.Connection, o.Namespace) = SharedOptions.EventHubsTarget(parse, Connection, Namespace);
        o.IngestionHub = parse.GetValue(IngestionHub) ?? SharedOptions.Env("IngestionHubName") ?? "ingestion";
        foreach (var (kind, option) in SensorKindCatalog.Default.All.Zip(KindHubs))
        {
            o.KindHubs[kind.Name] = parse.GetValue(option) ?? SharedOptions.Env(kind.HubSetting) ?? kind.Hub;
        }

        Cosmos.Bind(parse, o);
        o.Reasons = [.. parse.GetValue(Reason) ?? []];
        o.Since = parse.GetValue(Since);
        o.Until = parse.GetValue(Until);
        o.Ids = [.. parse.GetValue(Id) ?? []];
        o.DryRun = parse.GetValue(DryRun);
        o.Again = parse.GetValue(Again);
        o.MaxAttempts = parse.GetValue(MaxAttempts);
    }

    private static DateTimeOffset? Time(System.CommandLine.Parsing.ArgumentResult result)
    {
        var text = result.Tokens.Count > 0 ? result.Tokens[0].Value : "";
        if (DateTimeOffset.TryParse(text, CultureInfo.InvariantCulture, DateTimeStyles.AssumeUniversal, out var time))
        {
            return time;
        }

        result.AddError($"{result.Argument.Name}: '{text}' is not an ISO 8601 time (e.g. 2026-11-23T22:00:00Z)");
        return null;
    }
}
