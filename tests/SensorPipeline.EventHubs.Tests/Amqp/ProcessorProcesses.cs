using System.Globalization;

namespace SensorPipeline.EventHubs.Tests.Amqp;

/// <summary>
/// Event processor processes (tests/SensorPipeline.EventHubs.ProcessorApp: the SDK's
/// <c>PluggableCheckpointStoreEventProcessor</c> with a blob checkpoint store) and what their output lines say:
/// which partitions each owns, which events each processed, the checkpoints each stored. Every line pulses a signal
/// that <see cref="WaitUntilAsync"/> awaits, so conditions are checked when something changed, never on a timer.
/// </summary>
internal sealed class ProcessorProcesses(string eventHubsConnection, string storageConnection, string hub) : IAsyncDisposable
{
    private readonly Lock _lock = new();
    private readonly Dictionary<string, ChildProcess> _processes = [];
    private readonly Dictionary<string, HashSet<string>> _owned = [];
    private readonly Dictionary<string, Dictionary<string, long>> _checkpoints = [];
    private readonly List<(string Processor, string Partition, long Sequence)> _events = [];
    private readonly HashSet<string> _killed = [];
    private TaskCompletionSource _changed = new(TaskCreationOptions.RunContinuationsAsynchronously);

    public ChildProcess Start(string name, int checkpointEvery, TimeSpan ownershipExpiry, TimeSpan balancingInterval)
    {
        lock (_lock)
        {
            _owned[name] = [];
            _checkpoints[name] = [];
        }

        var process = ChildProcess.Start(new ChildProcessOptions
        {
            FileName = "dotnet",
            Arguments = [RepoLayout.Current.RequireBuilt("SensorPipeline.EventHubs.ProcessorApp", "SensorPipeline.EventHubs.ProcessorApp.dll")],
            Name = name,
            Environment = new Dictionary<string, string?>
            {
                ["EVENTHUBS_CONNECTION_STRING"] = eventHubsConnection,
                ["STORAGE_CONNECTION_STRING"] = storageConnection,
                ["HUB"] = hub,
                ["CONSUMER_GROUP"] = "$Default",
                ["PROCESSOR_ID"] = name,
                ["CHECKPOINT_EVERY"] = checkpointEvery.ToString(CultureInfo.InvariantCulture),
                ["OWNERSHIP_EXPIRY_MS"] = ((int)ownershipExpiry.TotalMilliseconds).ToString(CultureInfo.InvariantCulture),
                ["BALANCING_INTERVAL_MS"] = ((int)balancingInterval.TotalMilliseconds).ToString(CultureInfo.InvariantCulture),
            },
            StandardOutputLine = line => OnLine(name, line),
        });
        lock (_lock)
        {
            _processes[name] = process;
        }

        return process;
    }

    public IReadOnlySet<string> Owned(string processor)
    {
        lock (_lock)
        {
            return _owned[processor].ToHashSet();
        }
    }

    /// <summary>The last checkpoint <paramref name="processor"/> reported stored per partition.</summary>
    public IReadOnlyDictionary<string, long> Checkpoints(string processor)
    {
        lock (_lock)
        {
            return _checkpoints[processor].ToDictionary();
        }
    }

    /// <summary>Every event processed, by whom, in the order the lines arrived.</summary>
    public IReadOnlyList<(string Processor, string Partition, long Sequence)> Events
    {
        get
        {
            lock (_lock)
            {
                return [.. _events];
            }
        }
    }

    /// <summary>kill -9 of one processor: no shutdown code runs, its ownership records stay until they expire.</summary>
    public async Task KillAsync(string processor)
    {
        lock (_lock)
        {
            _killed.Add(processor);
        }

        await _processes[processor].KillAsync();
    }

    /// <summary>Waits until <paramref name="condition"/> holds, re-checked on every output line; fails at once when a
    /// processor this class did not kill has exited.</summary>
    public async Task WaitUntilAsync(Func<bool> condition, string what, TimeSpan timeout)
    {
        using var cancel = new CancellationTokenSource(timeout);
        while (true)
        {
            List<Task> wakers;
            lock (_lock)
            {
                // A new line, or the exit of a processor nobody killed (a crash prints on stderr only).
                wakers = [_changed.Task, .. _processes.Values.Where(p => !_killed.Contains(p.Name)).Select(p => p.WaitForExitAsync(cancel.Token))];
            }

            if (condition())
            {
                return;
            }

            if (Exited() is { } exited)
            {
                throw new InvalidOperationException($"{exited.Name} exited ({exited.ExitCode}) while waiting for {what}:\n{exited.Output}");
            }

            try
            {
                await Task.WhenAny(wakers).WaitAsync(cancel.Token);
            }
            catch (OperationCanceledException)
            {
                throw new TimeoutException($"waited {timeout.TotalSeconds:N0} s for {what}; output:\n{string.Join("\n", _processes.Values.Select(p => $"[{p.Name}]\n{p.Output}"))}");
            }
        }
    }

    private ChildProcess? Exited()
    {
        lock (_lock)
        {
            return _processes.Values.FirstOrDefault(p => p.HasExited && !_killed.Contains(p.Name));
        }
    }

    public async ValueTask DisposeAsync()
    {
        foreach (var process in _processes.Values)
        {
            await process.DisposeAsync();
        }
    }

    private void OnLine(string processor, string line)
    {
        var words = line.Split(' ');
        lock (_lock)
        {
            switch (words[0])
            {
                case "claimed":
                    _owned[processor].Add(words[1]);
                    break;
                case "released":
                    _owned[processor].Remove(words[1]);
                    break;
                case "event":
                    _events.Add((processor, words[1], long.Parse(words[2], CultureInfo.InvariantCulture)));
                    break;
                case "checkpoint":
                    _checkpoints[processor][words[1]] = long.Parse(words[2], CultureInfo.InvariantCulture);
                    break;
            }

            _changed.TrySetResult();
            _changed = new(TaskCreationOptions.RunContinuationsAsynchronously);
        }
    }
}
