using System.CommandLine;
using System.Globalization;
using Microsoft.Azure.Cosmos;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using SensorPipeline.LoadGen.Redrive;
using SensorPipeline.LoadGen.Sending;
using SensorPipeline.LoadGen.Verify;

namespace SensorPipeline.LoadGen.Cli;

/// <summary><c>loadgen redrive</c>: re-sends chosen dead letters to the hub they came from and marks them
/// (see <see cref="RedriveOptions"/> and <see cref="DeadLetterRedriver"/>).</summary>
internal static class RedriveCommand
{
    private static readonly Option<string?> Connection = SharedOptions.Connection();
    private static readonly Option<string?> Namespace = new("--namespace") { Description = "Namespace host name for Microsoft Entra auth (default: env EventHubConnection__fullyQualifiedNamespace)." };
    private static readonly Option<string?> IngestionHub = new("--ingestion-hub") { Description = "The splitter's hub (default: env IngestionHubName, else ingestion)." };
    private static readonly Option<string?> WeatherHub = new("--weather-hub") { Description = "The weather processor's hub (default: env WeatherHubName, else weather)." };
    private static readonly Option<string?> SeismicHub = new("--seismic-hub") { Description = "The seismic processor's hub (default: env SeismicHubName, else seismic)." };
    private static readonly Option<Uri?> Endpoint = SharedOptions.CosmosEndpoint();
    private static readonly Option<string?> Key = SharedOptions.CosmosKey();
    private static readonly Option<string?> ClientId = new("--managed-identity-client-id") { Description = "User-assigned identity for Microsoft Entra." };
    private static readonly Option<string?> Database = new("--database") { Description = "Database (default: env Cosmos__DatabaseName, else sensorpipeline)." };
    private static readonly Option<string?> DeadLetters = new("--deadletters-container") { Description = "Dead letters container (default: env Cosmos__DeadLettersContainer, else deadletters)." };
    private static readonly Option<string[]> Reason = new("--reason") { Description = "Reason code to select (repeatable), e.g. invalid-observed-at." };
    private static readonly Option<DateTimeOffset?> Since = new("--since") { Description = "Only dead letters stored at or after this time (ISO 8601, UTC unless an offset is given).", CustomParser = r => Time(r) };
    private static readonly Option<DateTimeOffset?> Until = new("--until") { Description = "Only dead letters stored before this time (ISO 8601).", CustomParser = r => Time(r) };
    private static readonly Option<string[]> Id = new("--id") { Description = "Dead letter id (repeatable)." };
    private static readonly Option<bool> DryRun = new("--dry-run") { Description = "List what would be sent; send and mark nothing." };
    private static readonly Option<bool> Again = new("--again") { Description = "Also re-send dead letters already marked re-driven." };
    private static readonly Option<int> MaxAttempts = new("--max-attempts") { Description = "HTTP attempts per event.", DefaultValueFactory = _ => 6 };

    public static Command Create()
    {
        var command = new Command("redrive", "Re-sends chosen dead letters' original bytes to the hub they came from and marks them re-driven (never deletes them).");
        foreach (var option in new Option[] { Connection, Namespace, IngestionHub, WeatherHub, SeismicHub, Endpoint, Key, ClientId, Database, DeadLetters, Reason, Since, Until, Id, DryRun, Again, MaxAttempts })
        {
            command.Options.Add(option);
        }

        command.SetAction(RunAsync);
        return command;
    }

    private static async Task<int> RunAsync(ParseResult parse, CancellationToken cancellationToken)
    {
        await using var provider = await StartupValidation.BuildAsync<RedriveOptions, RedriveOptionsValidator>(o => Bind(parse, o), verbose: false);
        if (provider is null)
        {
            return ExitCodes.BadArguments;
        }

        var options = provider.GetRequiredService<IOptions<RedriveOptions>>().Value;
        var time = provider.GetRequiredService<TimeProvider>();
        var logger = provider.GetRequiredService<ILoggerFactory>().CreateLogger("loadgen");
        using var client = VerifyCosmosClient.Create(new VerifyOptions
        {
            CosmosEndpoint = options.CosmosEndpoint,
            CosmosKey = options.CosmosKey,
            ManagedIdentityClientId = options.ManagedIdentityClientId,
            Concurrency = 1,
        });
        var senders = new Dictionary<RedriveHub, (EventSender Sender, IAuthorizationSource Authorization)>();
        try
        {
            var settings = new SenderSettings(1, options.MaxAttempts, TimeSpan.FromMilliseconds(100), TimeSpan.FromSeconds(5), TimeSpan.FromSeconds(30));
            var redriver = new DeadLetterRedriver(client.GetDatabase(options.Database).GetContainer(options.DeadLettersContainer), SenderFor, options, time);
            EventSender SenderFor(RedriveHub hub)
            {
                if (!senders.TryGetValue(hub, out var sender))
                {
                    var (baseAddress, authorization) = SendCommand.Authorization(options.Connection, options.Namespace, options.HubName(hub), time);
                    sender = (new EventSender(EventSender.MessagesUriFor(baseAddress, options.HubName(hub)), authorization, settings, time, logger), authorization);
                    senders[hub] = sender;
                }

                return sender.Sender;
            }

            IReadOnlyList<RedriveLine> lines;
            try
            {
                lines = await redriver.RunAsync(cancellationToken);
            }
            catch (Exception e) when (e is RedriveException or CosmosException or HttpRequestException)
            {
                await Console.Error.WriteLineAsync("loadgen redrive: cannot read the dead letters: " + e.Message);
                return ExitCodes.Unverifiable;
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
        o.Namespace = parse.GetValue(Namespace);
        o.Connection = parse.GetValue(Connection) ?? (o.Namespace is null ? Env("EventHubConnection") : null);
        o.Namespace ??= o.Connection is null ? Env("EventHubConnection__fullyQualifiedNamespace") : null;
        o.IngestionHub = parse.GetValue(IngestionHub) ?? Env("IngestionHubName") ?? "ingestion";
        o.WeatherHub = parse.GetValue(WeatherHub) ?? Env("WeatherHubName") ?? "weather";
        o.SeismicHub = parse.GetValue(SeismicHub) ?? Env("SeismicHubName") ?? "seismic";
        o.CosmosEndpoint = parse.GetValue(Endpoint) ?? (Uri.TryCreate(Env("Cosmos__AccountEndpoint"), UriKind.Absolute, out var fromEnv) ? fromEnv : null);
        o.CosmosKey = parse.GetValue(Key) ?? Env("Cosmos__AuthKey");
        o.ManagedIdentityClientId = parse.GetValue(ClientId) ?? Env("Cosmos__ManagedIdentityClientId");
        o.Database = parse.GetValue(Database) ?? Env("Cosmos__DatabaseName") ?? "sensorpipeline";
        o.DeadLettersContainer = parse.GetValue(DeadLetters) ?? Env("Cosmos__DeadLettersContainer") ?? "deadletters";
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

    private static string? Env(string name) => Environment.GetEnvironmentVariable(name) is { Length: > 0 } value ? value : null;
}
