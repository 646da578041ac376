using SensorPipeline.Core.Readings;

namespace SensorPipeline.LoadGen.Run;

/// <summary>A load run's settings, from the command line (option names in brackets). Validated at start by
/// <see cref="SendOptionsValidator"/>.</summary>
internal sealed class SendOptions
{
    /// <summary>The Event Hubs connection string [--connection, or env EventHubConnection]. Default: unset; either this or
    /// <see cref="Namespace"/> is required.</summary>
    public string? Connection { get; set; }

    /// <summary>The namespace's fully qualified name for Microsoft Entra auth [--namespace], e.g. <c>ns.servicebus.windows.net</c>.
    /// Default: unset.</summary>
    public string? Namespace { get; set; }

    /// <summary>The hub to send to [--hub]. Default <c>ingestion</c> (docs/conventions.md).</summary>
    public string Hub { get; set; } = "ingestion";

    /// <summary>
    /// Simulated devices per kind, by kind name [--devices-per-kind for every kind of sensor-kinds.json, and one option
    /// per kind that overrides it: --weather, …]. Default <see cref="DefaultDevicesPerKind"/> each.
    /// </summary>
    public Dictionary<string, int> Devices { get; } = SensorKindCatalog.Default.All.ToDictionary(static k => k.Name, static _ => DefaultDevicesPerKind, StringComparer.Ordinal);

    /// <summary>The default of each kind's entry in <see cref="Devices"/>: 50.</summary>
    public const int DefaultDevicesPerKind = 50;

    /// <summary><see cref="Devices"/> in the catalog's order, as <see cref="SensorPipeline.Devices.DeviceFleet"/> takes them.</summary>
    public int[] DevicesPerKind() => [.. SensorKindCatalog.Default.All.Select(k => Devices.GetValueOrDefault(k.Name))];

    /// <summary>Seed of the device simulations [--seed]; the same seed gives the same values. Default 1.</summary>
    public int Seed { get; set; } = 1;

    /// <summary>Device id prefix [--device-prefix]: ids are <c>{prefix}-weather-0001</c>. Default <c>dev</c>.</summary>
    public string DevicePrefix { get; set; } = "dev";

    /// <summary>Readings per ReadingBatch event [--readings-per-event], 1..10,000. Default 200 (~24 KB): what a device
    /// gateway batches, far under the 1 MB event limit; every event is one HTTP request, one append and a share of an
    /// invocation, so the per-event costs are spread over 200 readings.</summary>
    public int ReadingsPerEvent { get; set; } = DefaultReadingsPerEvent;

    /// <summary>The default of <see cref="ReadingsPerEvent"/>.</summary>
    public const int DefaultReadingsPerEvent = 200;

    /// <summary>Target rate in readings per second [--rate]; unset = as fast as the hub accepts. Default unset.</summary>
    public double? Rate { get; set; }

    /// <summary>How long to send [--duration]. Default unset (until --count, or Ctrl+C).</summary>
    public TimeSpan? Duration { get; set; }

    /// <summary>Readings to send [--count]; the last event may be smaller. Default unset (until --duration, or Ctrl+C).</summary>
    public long? Count { get; set; }

    /// <summary>How events travel [--transport]: <see cref="SendTransport.Amqp"/> (the official Event Hubs client, one
    /// connection) or <see cref="SendTransport.Rest"/> (the REST send API over pooled HTTP connections). Default Amqp.
    /// Malformed sends are REST requests either way.</summary>
    public SendTransport Transport { get; set; } = SendTransport.Amqp;

    /// <summary>Sends in flight at most [--concurrency], 1..1,024; also the HTTP connection pool size. Default 16.</summary>
    public int Concurrency { get; set; } = 16;

    /// <summary>HTTP attempts per event before giving up on transient failures [--max-attempts], 1..100. Default 6.</summary>
    public int MaxAttempts { get; set; } = 6;

    /// <summary>First retry delay [--base-backoff]; doubles per attempt. Default 100 ms.</summary>
    public TimeSpan BaseBackoff { get; set; } = TimeSpan.FromMilliseconds(100);

    /// <summary>Longest single retry delay [--max-backoff]. Default 5 s.</summary>
    public TimeSpan MaxBackoff { get; set; } = TimeSpan.FromSeconds(5);

    /// <summary>One HTTP attempt's timeout [--attempt-timeout]. Default 30 s.</summary>
    public TimeSpan AttemptTimeout { get; set; } = TimeSpan.FromSeconds(30);

    /// <summary>Poison events (garbage bytes) to inject [--poison]. Default 0.</summary>
    public int Poison { get; set; }

    /// <summary>Oversize events to inject [--oversize]. Default 0.</summary>
    public int Oversize { get; set; }

    /// <summary>Truncated events to inject [--truncated]: a valid ReadingBatch cut inside its last reading, dead-lettered
    /// whole as undecodable. Default 0.</summary>
    public int Truncated { get; set; }

    /// <summary>Out-of-range readings to inject [--out-of-range]: one reading whose latitude is beyond ±90, dead-lettered
    /// alone as <c>invalid-coordinates</c>. Default 0.</summary>
    public int OutOfRange { get; set; }

    /// <summary>Forged envelopes to inject [--forged]: sent straight to <see cref="ForgedHub"/>, bypassing the splitter,
    /// with an enqueued time no Event Hubs event can have; the processor dead-letters each as <c>invalid-source</c>. Default 0.</summary>
    public int Forged { get; set; }

    /// <summary>Malformed requests to send [--malformed-sends]: an oversize body, a malformed JSON batch, a number out of
    /// range, a forged signature, in turn. Each must be refused with its 4xx; one accepted fails the run. Default 0.</summary>
    public int MalformedSends { get; set; }

    /// <summary>The processor hub forged envelopes go to [--forged-hub]. Default <see cref="DefaultForgedHub"/>.</summary>
    public string ForgedHub { get; set; } = DefaultForgedHub;

    /// <summary>The default of <see cref="ForgedHub"/>: the first kind's hub in sensor-kinds.json.</summary>
    public static string DefaultForgedHub => SensorKindCatalog.Default.All[0].Hub;

    /// <summary>Shifts every device's clock [--clock-skew], e.g. <c>2m</c> ahead or <c>-10m</c> behind, within ±1 day: the
    /// observed-at times are off by this much, as a fleet with unsynchronised clocks would send them. Default 0.</summary>
    public TimeSpan ClockSkew { get; set; }

    /// <summary>Minimum size in bytes of an oversize event's one reading [--oversize-bytes], 983,040..1,000,000: too
    /// large for a forwarded envelope (983,040 bytes), under Event Hubs' 1 MB. Default 990,000.</summary>
    public int OversizeBytes { get; set; } = 990_000;

    /// <summary>One injected event per this many events [--inject-every]; injections left at the end are sent then. Default 20.</summary>
    public int InjectEvery { get; set; } = 20;

    /// <summary>After every K-th readings event, re-send an already acknowledged one [--duplicate-every]; 0 = never. Default 0.</summary>
    public int DuplicateEvery { get; set; }

    /// <summary>Functions to pause on devhost [--pause-function], e.g. <c>WeatherProcessor</c>. Default none.</summary>
    public List<string> PauseFunctions { get; set; } = [];

    /// <summary>How long they stay paused [--pause-for]; past the pipeline's max age makes readings stale. Default unset.</summary>
    public TimeSpan? PauseFor { get; set; }

    /// <summary>When, after the run starts, to pause [--pause-after]. Default 5 s.</summary>
    public TimeSpan PauseAfter { get; set; } = TimeSpan.FromSeconds(5);

    /// <summary>devhost's base URL for the pause control [--devhost]. Default: the emulator connection string's endpoint.</summary>
    public Uri? DevHost { get; set; }

    /// <summary>Pause route template [--pause-route]; <c>{name}</c> is the function. Default <c>/admin/functions/{name}/pause</c>.</summary>
    public string PauseRoute { get; set; } = "/admin/functions/{name}/pause";

    /// <summary>Resume route template [--resume-route]. Default <c>/admin/functions/{name}/resume</c>.</summary>
    public string ResumeRoute { get; set; } = "/admin/functions/{name}/resume";

    /// <summary>Ledger file [--ledger]. Default unset (no ledger).</summary>
    public string? Ledger { get; set; }

    /// <summary>How often progress is printed and the ledger rewritten [--progress-interval]. Default 1 s.</summary>
    public TimeSpan ProgressInterval { get; set; } = TimeSpan.FromSeconds(1);

    /// <summary>On Ctrl+C, how long in-flight sends may finish before they are abandoned [--grace]. Default 10 s.</summary>
    public TimeSpan Grace { get; set; } = TimeSpan.FromSeconds(10);
}

/// <summary>How loadgen sends events.</summary>
public enum SendTransport
{
    /// <summary>AMQP 1.0 with the official Event Hubs client.</summary>
    Amqp,

    /// <summary>The Event Hubs REST send API.</summary>
    Rest,
}
