using System.CommandLine;
using Azure.Identity;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using SensorPipeline.CommandLine;
using SensorPipeline.Core.Readings;
using SensorPipeline.LoadGen.Run;
using SensorPipeline.LoadGen.Sending;

namespace SensorPipeline.LoadGen.Cli;

/// <summary>The root command: send readings (see <see cref="SendOptions"/> for every option's meaning and default).</summary>
internal static class SendCommand
{
    private static readonly Option<string?> Connection = SharedOptions.Connection();
    private static readonly Option<string?> Namespace = SharedOptions.Namespace();
    private static readonly Option<string?> Hub = new("--hub") { Description = "Hub to send to (default: EntityPath of the connection string, else env IngestionHubName, else ingestion)." };
    // Every kind's device count at once, so a run (the demo, chaos) covers whatever kinds sensor-kinds.json lists.
    private static readonly Option<int> DevicesPerKind = new("--devices-per-kind")
    {
        Description = "Simulated devices of every kind of sensor-kinds.json (a --<kind> option overrides it for its kind).",
        DefaultValueFactory = _ => SendOptions.DefaultDevicesPerKind,
    };
    // One device count per kind of sensor-kinds.json: --weather, …; unset, the kind gets --devices-per-kind.
    private static readonly Option<int?>[] DevicesOfKind = [.. SensorKindCatalog.Default.All.Select(static k =>
        new Option<int?>("--" + k.Name) { Description = $"Simulated {k.Name} devices (default: --devices-per-kind)." })];
    private static readonly Option<int> Seed = new("--seed") { Description = "Seed of the simulations.", DefaultValueFactory = _ => 1 };
    private static readonly Option<string> DevicePrefix = new("--device-prefix") { Description = "Device id prefix.", DefaultValueFactory = _ => "dev" };
    private static readonly Option<int> ReadingsPerEvent = new("--readings-per-event") { Description = "Readings per event.", DefaultValueFactory = _ => SendOptions.DefaultReadingsPerEvent };
    private static readonly Option<double?> Rate = new("--rate") { Description = "Target readings per second (default: flat out)." };
    private static readonly Option<TimeSpan?> Duration = new("--duration") { Description = "How long to send (30s, 5m, …).", CustomParser = r => Durations.Parse(r) };
    private static readonly Option<long?> Count = new("--count") { Description = "Readings to send." };
    private static readonly Option<SendTransport> Transport = new("--transport") { Description = "amqp (the official Event Hubs client) or rest (the REST send API); malformed sends are always REST.", DefaultValueFactory = _ => SendTransport.Amqp };
    private static readonly Option<int> Concurrency = new("--concurrency") { Description = "Sends in flight at most.", DefaultValueFactory = _ => 16 };
    private static readonly Option<int> MaxAttempts = SharedOptions.MaxAttempts();
    private static readonly Option<TimeSpan> BaseBackoff = Duration_("--base-backoff", "First retry delay.", TimeSpan.FromMilliseconds(100));
    private static readonly Option<TimeSpan> MaxBackoff = Duration_("--max-backoff", "Longest retry delay.", TimeSpan.FromSeconds(5));
    private static readonly Option<TimeSpan> AttemptTimeout = Duration_("--attempt-timeout", "One HTTP attempt's timeout.", TimeSpan.FromSeconds(30));
    private static readonly Option<int> Poison = new("--poison") { Description = "Poison events (garbage bytes) to inject." };
    private static readonly Option<int> Oversize = new("--oversize") { Description = "Oversize events to inject." };
    private static readonly Option<int> Truncated = new("--truncated") { Description = "Truncated ReadingBatch events to inject (dead-lettered whole)." };
    private static readonly Option<int> OutOfRange = new("--out-of-range") { Description = "Readings with a latitude beyond ±90 to inject (dead-lettered alone)." };
    private static readonly Option<int> Forged = new("--forged") { Description = "Forged envelopes to send straight to --forged-hub (dead-lettered by the processor)." };
    private static readonly Option<int> MalformedSends = new("--malformed-sends") { Description = "Requests the hub must refuse (oversize, malformed JSON, bad number, forged signature)." };
    private static readonly Option<string> ForgedHub = new("--forged-hub") { Description = "The processor hub forged envelopes go to (default: the first kind's hub in sensor-kinds.json).", DefaultValueFactory = _ => SendOptions.DefaultForgedHub };
    private static readonly Option<TimeSpan> ClockSkew = new("--clock-skew")
    {
        Description = "Shift every device's clock: --clock-skew=2m ahead, --clock-skew=-10m behind.", CustomParser = Durations.ParseSigned,
    };
    private static readonly Option<int> OversizeBytes = new("--oversize-bytes") { Description = "Minimum size of an oversize event's one reading (983040..1000000).", DefaultValueFactory = _ => 990_000 };
    private static readonly Option<int> InjectEvery = new("--inject-every") { Description = "One injected event per this many events.", DefaultValueFactory = _ => 20 };
    private static readonly Option<int> DuplicateEvery = new("--duplicate-every") { Description = "Re-send an acknowledged event after every K events (0: never)." };
    private static readonly Option<string[]> PauseFunction = new("--pause-function") { Description = "devhost function to pause (repeatable), e.g. WeatherProcessor.", AllowMultipleArgumentsPerToken = false };
    private static readonly Option<TimeSpan?> PauseFor = new("--pause-for") { Description = "How long to keep them paused.", CustomParser = r => Durations.Parse(r) };
    private static readonly Option<TimeSpan> PauseAfter = Duration_("--pause-after", "When to pause, after the start.", TimeSpan.FromSeconds(5));
    private static readonly Option<Uri?> DevHost = new("--devhost") { Description = "devhost base URL (default: the emulator connection string's endpoint).", CustomParser = UriParser.Parse };
    private static readonly Option<string> PauseRoute = new("--pause-route") { Description = "Pause route template.", DefaultValueFactory = _ => "/admin/functions/{name}/pause" };
    private static readonly Option<string> ResumeRoute = new("--resume-route") { Description = "Resume route template.", DefaultValueFactory = _ => "/admin/functions/{name}/resume" };
    private static readonly Option<string?> LedgerPath = new("--ledger") { Description = "Ledger file (JSON) for loadgen verify." };
    private static readonly Option<TimeSpan> ProgressInterval = Duration_("--progress-interval", "Progress and ledger update interval.", TimeSpan.FromSeconds(1));
    private static readonly Option<TimeSpan> Grace = Duration_("--grace", "On Ctrl+C, how long in-flight sends may finish.", TimeSpan.FromSeconds(10));
    private static readonly Option<bool> Verbose = new("--verbose") { Description = "Log every retry." };

    /// <summary>Adds the send options and action to <paramref name="root"/>.</summary>
    public static void Configure(RootCommand root)
    {
        ArgumentNullException.ThrowIfNull(root);
        Option[] options = [Connection, Namespace, Hub, DevicesPerKind, .. DevicesOfKind, Seed, DevicePrefix, ReadingsPerEvent, Rate, Duration, Count, Transport, Concurrency,
            MaxAttempts, BaseBackoff, MaxBackoff, AttemptTimeout, Poison, Oversize, Truncated, OutOfRange, Forged, MalformedSends, ForgedHub, ClockSkew, OversizeBytes, InjectEvery, DuplicateEvery, PauseFunction,
            PauseFor, PauseAfter, DevHost, PauseRoute, ResumeRoute, LedgerPath, ProgressInterval, Grace, Verbose];
        root.WithAction(options, RunAsync);
    }

    /// <summary>The send options <paramref name="arguments"/> give, bound as a run binds them (not validated, not
    /// run): what a launcher's arguments mean to loadgen.</summary>
    internal static SendOptions Parse(IReadOnlyList<string> arguments)
    {
        var root = new RootCommand();
        Configure(root);
        var parse = root.Parse(arguments);
        if (parse.Errors.Count > 0)
        {
            throw new ArgumentException(string.Join("; ", parse.Errors.Select(static e => e.Message)), nameof(arguments));
        }

        var options = new SendOptions();
        Bind(parse, options);
        return options;
    }

    private static Option<TimeSpan> Duration_(string name, string description, TimeSpan defaultValue) =>
        new(name) { Description = description, DefaultValueFactory = _ => defaultValue, CustomParser = Durations.Parse };

    private static Task<int> RunAsync(ParseResult parse, CancellationToken cancellationToken) =>
        StartupValidation.RunAsync<SendOptions, SendOptionsValidator>(o => Bind(parse, o), parse.GetValue(Verbose),
            (provider, options) => SendAsync(provider, options, cancellationToken));

    private static async Task<int> SendAsync(IServiceProvider provider, SendOptions options, CancellationToken cancellationToken)
    {
        var time = provider.GetRequiredService<TimeProvider>();
        var logger = provider.GetRequiredService<ILoggerFactory>().CreateLogger("loadgen");
        var (baseAddress, authorization) = Authorization(options, time);
        var senderSettings = new SenderSettings(options.Concurrency, options.MaxAttempts, options.BaseBackoff, options.MaxBackoff, options.AttemptTimeout);
        using var restSender = new EventSender(EventSender.MessagesUriFor(baseAddress, options.Hub), authorization,
            senderSettings, time, logger);
        using var amqpSender = options.Transport == SendTransport.Amqp
            ? AmqpEventSender.Create(options.Connection, options.Namespace, options.Hub, senderSettings, time)
            : null;
        IEventSender sender = amqpSender is not null ? amqpSender : restSender;

        // Forged envelopes bypass the splitter: the same sender settings, another hub (and a token for it).
        var forgedAuthorization = options.Forged > 0 ? Authorization(options.Connection, options.Namespace, options.ForgedHub, time).Authorization : null;
        using var forgedSender = forgedAuthorization is null ? null
            : options.Transport == SendTransport.Amqp
                ? AmqpEventSender.Create(options.Connection, options.Namespace, options.ForgedHub, senderSettings, time)
                : (IEventSender)new EventSender(EventSender.MessagesUriFor(baseAddress, options.ForgedHub), forgedAuthorization, senderSettings, time, logger);
        using var controlClient = new HttpClient { Timeout = TimeSpan.FromSeconds(30) };
        var pause = options.PauseFunctions.Count > 0
            ? new PauseController(controlClient, options.DevHost ?? baseAddress, options, time, logger)
            : null;
        var progress = new ProgressLine(Console.Out, live: !Console.IsOutputRedirected);
        using var runner = new LoadRunner(options, sender, time, logger, progress, pause, forgedSender, restSender);
        var result = await runner.RunAsync(cancellationToken);
        (authorization as IDisposable)?.Dispose();
        (forgedAuthorization as IDisposable)?.Dispose();
        RunSummary.Print(result, options, Console.Out);
        return result.Interrupted ? ExitCodes.Interrupted
            : result.Ledger.Counts.EventsFailed > 0 || result.Ledger.Injected.Any(i => !i.Acknowledged) || result.PauseFailed
                || result.Ledger.Counts.MalformedAccepted > 0 ? ExitCodes.Failed
            : ExitCodes.Ok;
    }

    private static void Bind(ParseResult parse, SendOptions o)
    {
        // Explicit options win; then the settings names docs/conventions.md and infra's azure.env use.
        (o.Connection, o.Namespace) = SharedOptions.EventHubsTarget(parse, Connection, Namespace);
        o.Hub = parse.GetValue(Hub) ?? EntityPath(o.Connection) ?? SharedOptions.Env("IngestionHubName") ?? "ingestion";
        foreach (var (kind, option) in SensorKindCatalog.Default.All.Zip(DevicesOfKind))
        {
            o.Devices[kind.Name] = parse.GetValue(option) ?? parse.GetValue(DevicesPerKind);
        }

        o.Seed = parse.GetValue(Seed);
        o.DevicePrefix = parse.GetValue(DevicePrefix)!;
        o.ReadingsPerEvent = parse.GetValue(ReadingsPerEvent);
        o.Rate = parse.GetValue(Rate);
        o.Duration = parse.GetValue(Duration);
        o.Count = parse.GetValue(Count);
        o.Transport = parse.GetValue(Transport);
        o.Concurrency = parse.GetValue(Concurrency);
        o.MaxAttempts = parse.GetValue(MaxAttempts);
        o.BaseBackoff = parse.GetValue(BaseBackoff);
        o.MaxBackoff = parse.GetValue(MaxBackoff);
        o.AttemptTimeout = parse.GetValue(AttemptTimeout);
        o.Poison = parse.GetValue(Poison);
        o.Oversize = parse.GetValue(Oversize);
        o.Truncated = parse.GetValue(Truncated);
        o.OutOfRange = parse.GetValue(OutOfRange);
        o.Forged = parse.GetValue(Forged);
        o.MalformedSends = parse.GetValue(MalformedSends);
        o.ForgedHub = parse.GetValue(ForgedHub)!;
        o.ClockSkew = parse.GetValue(ClockSkew);
        o.OversizeBytes = parse.GetValue(OversizeBytes);
        o.InjectEvery = parse.GetValue(InjectEvery);
        o.DuplicateEvery = parse.GetValue(DuplicateEvery);
        o.PauseFunctions = [.. parse.GetValue(PauseFunction) ?? []];
        o.PauseFor = parse.GetValue(PauseFor);
        o.PauseAfter = parse.GetValue(PauseAfter);
        o.DevHost = parse.GetValue(DevHost);
        o.PauseRoute = parse.GetValue(PauseRoute)!;
        o.ResumeRoute = parse.GetValue(ResumeRoute)!;
        o.Ledger = parse.GetValue(LedgerPath);
        o.ProgressInterval = parse.GetValue(ProgressInterval);
        o.Grace = parse.GetValue(Grace);
    }

    private static string? EntityPath(string? connection)
    {
        try
        {
            return connection is null ? null : EventHubsConnection.Parse(connection).EntityPath;
        }
        catch (FormatException)
        {
            return null; // reported by the validator, which names the option
        }
    }

    private static (Uri BaseAddress, IAuthorizationSource Authorization) Authorization(SendOptions options, TimeProvider time) =>
        Authorization(options.Connection, options.Namespace, options.Hub, time);

    /// <summary>The base address and the authorization for sends to <paramref name="hub"/>: SAS from a connection string,
    /// else Microsoft Entra on <paramref name="ns"/>. Shared with <c>loadgen redrive</c>.</summary>
    internal static (Uri BaseAddress, IAuthorizationSource Authorization) Authorization(string? connectionString, string? ns, string hub, TimeProvider time)
    {
        if (connectionString is not null)
        {
            var connection = EventHubsConnection.Parse(connectionString);
            // The token covers the hub (all its send paths), signed over the same URL the requests go to.
            var resource = connection.BaseAddress.GetLeftPart(UriPartial.Authority) + "/" + hub;
            return (connection.BaseAddress, new SasAuthorization(resource, connection.KeyName, connection.Key, time));
        }

        var baseAddress = new Uri("https://" + ns);
        return (baseAddress, new EntraAuthorization(new DefaultAzureCredential(), time));
    }
}
