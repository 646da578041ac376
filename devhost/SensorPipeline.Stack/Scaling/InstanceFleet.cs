namespace SensorPipeline.Stack.Scaling;

/// <summary>The Functions-host instances of a function app, per function (per-function scaling: an instance runs one
/// function), each a <c>devhost instance</c> process with its own handler. Instance ids are
/// <c>{function}-{n}</c>, n counting up per function and never reused, so an ownership record names one process.
/// Scaling in stops the newest instance with SIGTERM (it finishes its in-flight batch and relinquishes its partitions);
/// <see cref="KillOneAsync"/> is the crash: kill -9 of the instance and its handler. Changes are serialized, so the
/// scaler loop and a demo's kill may act at once.</summary>
public sealed class InstanceFleet(DevHostInstanceStart template, RepoLayout? layout = null) : IAsyncDisposable
{
    private readonly Dictionary<string, List<DevHostProcess>> _instances = new(StringComparer.OrdinalIgnoreCase);
    private readonly Dictionary<string, int> _started = new(StringComparer.OrdinalIgnoreCase);
    private readonly List<string> _events = [];
    private readonly SemaphoreSlim _gate = new(1, 1);

    /// <summary>Instances running now for <paramref name="function"/> (killed ones excluded).</summary>
    public int Count(string function)
    {
        lock (_instances)
        {
            return Running(function).Count;
        }
    }

    /// <summary>The running instances of a function, oldest first.</summary>
    public IReadOnlyList<DevHostProcess> Running(string function)
    {
        var list = _instances.GetValueOrDefault(function) ?? [];
        list.RemoveAll(p => p.Process.HasExited);
        return list;
    }

    /// <summary>What the fleet did, one line each with a UTC time (started, stopped, killed).</summary>
    public IReadOnlyList<string> Events => _events;

    /// <summary>Starts or stops instances of <paramref name="function"/> until <paramref name="count"/> run.</summary>
    public async Task ScaleToAsync(string function, int count, CancellationToken cancellationToken)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(count);
        await _gate.WaitAsync(cancellationToken);
        try
        {
            await ScaleToLockedAsync(function, count, cancellationToken);
        }
        finally
        {
            _gate.Release();
        }
    }

    private async Task ScaleToLockedAsync(string function, int count, CancellationToken cancellationToken)
    {
        if (Count(function) < count)
        {
            // Started together, as the platform adds several instances in one decision: each cold start overlaps.
            var ids = Enumerable.Range(0, count - Count(function)).Select(_ => NextId(function)).ToList();
            var started = await Task.WhenAll(ids.Select(id => LaunchAsync(function, id, cancellationToken)));
            foreach (var instance in started)
            {
                Add(function, instance);
            }
        }

        while (Count(function) > count)
        {
            var newest = Running(function)[^1];
            lock (_instances)
            {
                _instances[function].Remove(newest);
            }

            await newest.Process.TerminateAsync(TimeSpan.FromSeconds(30), cancellationToken);
            await newest.DisposeAsync();
            Note($"stopped {newest.Process.Name}");
        }
    }

    /// <summary>Starts one more instance of <paramref name="function"/> and waits until it listens.</summary>
    public async Task<DevHostProcess> StartOneAsync(string function, CancellationToken cancellationToken)
    {
        var instance = await LaunchAsync(function, NextId(function), cancellationToken);
        Add(function, instance);
        return instance;
    }

    private string NextId(string function)
    {
        var n = _started[function] = _started.GetValueOrDefault(function) + 1;
        return string.Create(CultureInfo.InvariantCulture, $"{function}-{n}");
    }

    private Task<DevHostProcess> LaunchAsync(string function, string id, CancellationToken cancellationToken) =>
        DevHostProcess.StartInstanceAsync(template with
        {
            InstanceId = id,
            Functions = function,
            LogPath = template.LogPath is { } log ? Path.Combine(Path.GetDirectoryName(log)!, $"instance-{id}.log") : null,
        }, layout, cancellationToken);

    private void Add(string function, DevHostProcess instance)
    {
        lock (_instances)
        {
            (_instances.TryGetValue(function, out var list) ? list : _instances[function] = []).Add(instance);
        }

        Note($"started {instance.Process.Name.Replace("instance ", "", StringComparison.Ordinal)} (pid {instance.Process.Id})");
    }

    /// <summary>kill -9 of one running instance of <paramref name="function"/> and its handler (the oldest, which
    /// has had the longest to claim partitions); returns its id.</summary>
    public async Task<string> KillOneAsync(string function)
    {
        await _gate.WaitAsync();
        try
        {
            return await KillOneLockedAsync(function);
        }
        finally
        {
            _gate.Release();
        }
    }

    private async Task<string> KillOneLockedAsync(string function)
    {
        var running = Running(function);
        var victim = running.Count > 0 ? running[0] : throw new InvalidOperationException($"no running instance of {function} to kill");
        await victim.Process.KillAsync(entireProcessTree: true);
        lock (_instances)
        {
            _instances[function].Remove(victim);
        }

        var id = victim.Process.Name.Replace("instance ", "", StringComparison.Ordinal);
        Note($"killed {id} (kill -9 of the instance and its handler)");
        await victim.DisposeAsync();
        return id;
    }

    public async ValueTask DisposeAsync()
    {
        // SIGTERM to all at once: each relinquishes and stops its handler; disposing kills what is left.
        foreach (var instance in _instances.Values.SelectMany(list => list))
        {
            await instance.DisposeAsync();
        }

        _instances.Clear();
        _gate.Dispose();
    }

    private void Note(string what)
    {
        lock (_events)
        {
            _events.Add($"{DateTimeOffset.UtcNow:HH:mm:ss.f} {what}");
        }
    }
}
