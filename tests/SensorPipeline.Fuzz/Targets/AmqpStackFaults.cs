using System.Collections.Concurrent;
using System.Diagnostics;
using System.Reflection;
using Microsoft.Azure.Amqp;

namespace SensorPipeline.Fuzz.Targets;

/// <summary>
/// Exceptions from devhost's own code that Microsoft.Azure.Amqp caught while handling a frame (a link's message listener
/// throwing, or a library call it made on a closed link): the library traces them through <see cref="AmqpTrace"/>
/// (operation <c>ProcessFrame</c>, the exception's message only) and closes the link or session with them, so the peer
/// sees a detach or end, not <c>amqp:internal-error</c>. Installed once for the process: each thrown exception is
/// classified from the stack it was thrown on (<see cref="IsFault"/>), and a <c>ProcessFrame</c> trace of that same
/// exception on the same thread is recorded as a fault of the connection, named by its remote endpoint.
/// Everything else the library traces is the peer's doing (a frame it rejects, a close aborted with its connection).
/// </summary>
internal sealed class AmqpStackFaults : AmqpTrace
{
    private static readonly Lazy<AmqpStackFaults> Installed = new(Install);

    private static readonly ConcurrentDictionary<Assembly, bool> Devhost = new();

    [ThreadStatic]
    private static Thrown? _lastThrown;

    [ThreadStatic]
    private static bool _classifying;

    private readonly ConcurrentDictionary<string, ConcurrentQueue<string>> _byConnection = new();

    /// <summary>The provider, installed for the process on first use.</summary>
    public static AmqpStackFaults Instance => Installed.Value;

    /// <summary>Starts recording the faults of the connection whose remote endpoint is <paramref name="remote"/>.</summary>
    public void Watch(string remote) => _byConnection[remote] = new ConcurrentQueue<string>();

    /// <summary>The faults recorded for <paramref name="remote"/> since <see cref="Watch"/>, and stops recording them.</summary>
    public IReadOnlyList<string> Take(string remote) =>
        _byConnection.TryRemove(remote, out var faults) ? [.. faults] : [];

    /// <summary>Whether an exception thrown on <paramref name="frames"/> (deepest first, the throw site first) is
    /// devhost's fault: the part of the stack above the library's <c>ProcessFrame</c> holds devhost's code (the
    /// library called it), and the exception is not an <see cref="AmqpException"/> devhost threw itself (a refusal it
    /// meant, answered on the wire with its condition). Devhost's transport below <c>ProcessFrame</c> does not count:
    /// it carries every frame. An exception thrown outside frame handling is not the library's to catch.</summary>
    public static bool IsFault(IReadOnlyList<MethodBase?> frames, Exception exception)
    {
        var processFrame = -1;
        for (var i = 0; i < frames.Count && processFrame < 0; i++)
        {
            if (IsLibrary(frames[i]) && frames[i]!.Name == nameof(AmqpLink.ProcessFrame))
            {
                processFrame = i;
            }
        }

        if (processFrame <= 0)
        {
            return false;
        }

        var ours = false;
        for (var i = 0; i < processFrame; i++)
        {
            ours |= IsDevhost(frames[i]);
        }

        var refusal = exception is AmqpException && IsDevhost(frames[0]);
        return ours && !refusal;
    }

    public override void AmqpLogError(object source, string operation, string message)
    {
        base.AmqpLogError(source, operation, message);
        if (operation != nameof(AmqpLink.ProcessFrame) || _lastThrown is not { Fault: true } thrown || thrown.Exception.Message != message)
        {
            return;
        }

        var connection = source switch
        {
            AmqpLink link => link.Session?.Connection,
            AmqpSession session => session.Connection,
            _ => null,
        };
        if (connection?.RemoteEndpoint is { } remote && _byConnection.TryGetValue(remote, out var faults))
        {
            faults.Enqueue($"{source} {operation}: {thrown.Exception.GetType().Name}: {message}");
        }
    }

    private static AmqpStackFaults Install()
    {
        var faults = new AmqpStackFaults();
        AppDomain.CurrentDomain.FirstChanceException += (_, e) => OnThrown(e.Exception);
        AmqpTrace.Provider = faults;
        return faults;
    }

    /// <summary>Runs on the throwing thread with its stack intact. A rethrow of the same exception keeps its verdict:
    /// the library may catch it, clean up and rethrow from above devhost's frames.</summary>
    private static void OnThrown(Exception exception)
    {
        if (_classifying)
        {
            return; // thrown by the classification itself: not the stack's
        }

        _classifying = true;
        try
        {
            var frames = new StackTrace(false).GetFrames().Select(f => f.GetMethod())
                .SkipWhile(m => m?.DeclaringType?.Assembly == typeof(AmqpStackFaults).Assembly).ToArray();
            var fault = IsFault(frames, exception) || (_lastThrown is { } last && ReferenceEquals(last.Exception, exception) && last.Fault);
            _lastThrown = new Thrown(exception, fault);
        }
        finally
        {
            _classifying = false;
        }
    }

    private static bool IsLibrary(MethodBase? method) => method?.DeclaringType?.Assembly == typeof(AmqpLink).Assembly;

    /// <summary>devhost's assemblies (the emulators', the toolkit's), not this harness.</summary>
    private static bool IsDevhost(MethodBase? method) =>
        method?.DeclaringType?.Assembly is { } assembly && Devhost.GetOrAdd(assembly, a =>
            a.GetName().Name is { } name && name.StartsWith("SensorPipeline.", StringComparison.Ordinal) && a != typeof(AmqpStackFaults).Assembly);

    private sealed record Thrown(Exception Exception, bool Fault);
}
