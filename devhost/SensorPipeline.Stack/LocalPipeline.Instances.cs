using System.Net.Http.Json;

namespace SensorPipeline.Stack;

/// <summary>Separate Functions-host instances (<see cref="StackOptions.Instances"/>): a fleet of <c>devhost instance</c>
/// processes per function against devhost's hubs, a fixed number each or sized by the target-based scaler.</summary>
public sealed partial class LocalPipeline
{
    private string _appRoot = string.Empty;
    private Dictionary<string, string?> _environment = [];
    private CancellationTokenSource? _scaling;
    private Task _scaler = Task.CompletedTask;
    private EventHubsBacklog? _backlog;

    /// <summary>The instances, when the stack runs them as separate processes.</summary>
    public InstanceFleet? Fleet { get; private set; }

    /// <summary>The scaler under <c>--instances auto</c>.</summary>
    public TargetScaler? Scaler { get; private set; }

    /// <summary>One instance's own <c>/status/functions</c>: its handler's pid, what it owns, its invocations.</summary>
    public async Task<FunctionsStatus> GetInstanceStatusAsync(DevHostProcess instance, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(instance);
        return await _http.GetFromJsonAsync<FunctionsStatus>(new Uri(instance.BaseAddress, "status/functions"), Json, cancellationToken)
            ?? throw new InvalidOperationException($"{instance.Process.Name} returned no status");
    }

    private async Task StartInstancesAsync(string logs, CancellationToken cancellationToken)
    {
        if (Options.Instances is not { } instances)
        {
            await WaitForOwnersAsync(cancellationToken); // devhost's own instance: load sent after this meets owned partitions
            return;
        }

        Fleet = new InstanceFleet(new DevHostInstanceStart
        {
            DevHost = DevHostUrl,
            AppRoot = _appRoot,
            DataDirectory = Path.Combine(Options.DataDirectory, "eventhubs"),
            InstanceId = "instance",
            Settings = Options.Azure?.EventHubs is null ? Options.InstanceSettings : [.. Options.InstanceSettings, "FunctionsHost:ExternalNamespace=true"],
            Environment = _environment,
            LogPath = Path.Combine(logs, "instance.log"),
            StopGracePeriod = TimeSpan.FromSeconds(10),
            StartTimeout = TimeSpan.FromSeconds(120),
        }, Layout);
        if (instances.Fixed is { } count)
        {
            var status = await GetFunctionsStatusAsync(cancellationToken);
            foreach (var function in status.Functions)
            {
                await Fleet.ScaleToAsync(function.Name, count, cancellationToken);
            }

            await WaitForOwnersAsync(cancellationToken);
            return;
        }

        _backlog = new EventHubsBacklog(EventHubConnection, StorageConnection);
        Scaler = new TargetScaler(DevHostUrl, Fleet, Options.Scaler, _http, _backlog);
        await Scaler.DecideOnceAsync(cancellationToken); // the first instance of each function before load starts
        await WaitForOwnersAsync(cancellationToken);
        _scaling = new CancellationTokenSource();
        _scaler = Scaler.RunAsync(_scaling.Token);
    }

    /// <summary>
    /// Ready means every partition of every function with instances has an owner: an instance claims only once its host
    /// and handler are up, so load sent after this meets warm instances, and a run's first seconds do not read as the
    /// chain's steady state.
    /// </summary>
    private async Task WaitForOwnersAsync(CancellationToken cancellationToken)
    {
        // A function scaled to zero (a test that starts its own instances) has nobody to wait for.
        await Eventually.ValueAsync(
            async token => (await GetFunctionsStatusAsync(token)).Functions
                .Where(f => (Fleet is null || Fleet.Count(f.Name) > 0) && f.Partitions.Any(p => p.Owner is null)).Select(f => f.Name).ToList(),
            unowned => unowned.Count == 0, "every partition of the started instances' functions to have an owner (see the instance logs)",
            TimeSpan.FromMinutes(2), TimeSpan.FromMilliseconds(250), cancellationToken: cancellationToken);
    }

    private async Task StopInstancesAsync()
    {
        if (_scaling is not null)
        {
            await _scaling.CancelAsync();
            await _scaler;
            _scaling.Dispose();
        }

        await (_backlog?.DisposeAsync() ?? ValueTask.CompletedTask);

        if (Fleet is not null)
        {
            await Fleet.DisposeAsync();
        }
    }

    /// <summary>The device-state status of the handler devhost runs (one handler: the stack without separate instances).</summary>
    public async Task<DeviceStatesStatus> GetDeviceStatesAsync(CancellationToken cancellationToken)
    {
        var port = (await GetFunctionsStatusAsync(cancellationToken)).HandlerPort ?? throw new InvalidOperationException("devhost reports no running handler");
        return await _http.GetFromJsonAsync<DeviceStatesStatus>(new Uri(string.Create(CultureInfo.InvariantCulture, $"http://127.0.0.1:{port}/status/device-states")), Json, cancellationToken)
            ?? throw new InvalidOperationException("the handler returned no device-state status");
    }

    /// <summary>
    /// Waits until the handler reports every reading it stored before the call with its device state durable (nothing
    /// pending from before, no other instance's mark left to recover): the signal to read <c>devices</c> on.
    /// </summary>
    public async Task<DeviceStatesStatus> WaitForDeviceStatesAsync(TimeSpan timeout, CancellationToken cancellationToken)
    {
        var since = DateTimeOffset.UtcNow.ToUnixTimeMilliseconds();
        return await Eventually.ValueAsync(GetDeviceStatesAsync, status => status.StoredBeforeUnixMs >= since && status.UnrecoveredMarks == 0,
            "every device state of a reading stored before the wait to be durable, and no mark left to recover", timeout, TimeSpan.FromMilliseconds(100),
            cancellationToken: cancellationToken);
    }
}
