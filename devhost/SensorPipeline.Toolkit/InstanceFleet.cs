using System.Globalization;

namespace SensorPipeline.Toolkit;

/// <summary>The Functions-host instances of a function app, per function (per-function scaling: an instance runs one
/// function), each a <c>devhost instance</c> process with its own handler. Instance ids are
/// <c>{function}-{n}</c>, n counting up per function and never reused, so an ownership record names one process.
/// Scaling in stops the newest instance with SIGTERM (it finishes its in-flight batch and relinquishes its partitions);
/// <see cref="KillOneAsync"/> is the crash: kill -9 of the instance and its handler. Not thread-safe: one caller
/// (the scaler loop or the demo) drives it.</summary>
public sealed class InstanceFleet(DevHostInstanceStart template, RepoLayout? layout = null) : IAsyncDisposable
{
    private readonly Dictionary<string, List<DevHostProcess>> _instances = new(StringComparer.OrdinalIgnoreCase);
    private readonly Dictionary<string, int> _started = new(StringComparer.OrdinalIgnoreCase);
    private readonly List<string> _events = [];

    /// <summary>Instances running now for <paramref name="function"/> (killed ones excluded).</summary>
    public int Count(string function) => Running(function).Count;

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
        while (Count(function) < count)
        {
            await StartOneAsync(function, cancellationToken);
        }

        while (Count(function) > count)
        {
            var newest = Running(function)[^1];
            _instances[function].Remove(newest);
            await newest.Process.TerminateAsync(TimeSpan.FromSeconds(30), cancellationToken);
            await newest.DisposeAsync();
            Note($"stopped {newest.Process.Name}");
        }
    }

    /// <summary>Starts one more instance of <paramref name="function"/> and waits until it listens.</summary>
    public async Task<DevHostProcess> StartOneAsync(string function, CancellationToken cancellationToken)
    {
        var n = _started[function] = _started.GetValueOrDefault(function) + 1;
        var id = string.Create(CultureInfo.InvariantCulture, $"{function}-{n}");
        var instance = await DevHostProcess.StartInstanceAsync(template with
        {
            InstanceId = id,
            Functions = function,
            LogPath = template.LogPath is { } log ? Path.Combine(Path.GetDirectoryName(log)!, $"instance-{id}.log") : null,
        }, layout, cancellationToken);
        (_instances.TryGetValue(function, out var list) ? list : _instances[function] = []).Add(instance);
        Note($"started {id} (pid {instance.Process.Id})");
        return instance;
    }

    /// <summary>kill -9 of one running instance of <paramref name="function"/> and its handler (the oldest, which
    /// has had the longest to claim partitions); returns its id.</summary>
    public async Task<string> KillOneAsync(string function)
    {
        var running = Running(function);
        var victim = running.Count > 0 ? running[0] : throw new InvalidOperationException($"no running instance of {function} to kill");
        await victim.Process.KillAsync(entireProcessTree: true);
        _instances[function].Remove(victim);
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
    }

    private void Note(string what)
    {
        lock (_events)
        {
            _events.Add($"{DateTimeOffset.UtcNow:HH:mm:ss.f} {what}");
        }
    }
}
