namespace SensorPipeline.Toolkit;

/// <summary>Where devhost's CPU goes while it takes sends: each <c>perf</c> sample of the devhost process is given to
/// one stage by its stack. What the thread is doing whatever code asked for it comes first — an fsync or file write in
/// the kernel, the garbage collector, the JIT, an idle thread-pool worker yielding, a socket call at the leaf — then
/// the code that asked, most specific first: the log writer, the event codecs, the AMQP path (Microsoft.Azure.Amqp and
/// devhost's AMQP endpoint), the HTTP path (Kestrel, ASP.NET Core, the REST endpoints), the socket layers; what none
/// of them claims is <see cref="Other"/> (the runtime, CoreLib and the thread pool between them).</summary>
public static class DevHostStages
{
    public const string Fsync = "fsync, kernel file I/O";
    public const string LogWrite = "log write (Storage)";
    public const string Codec = "event decode/encode";
    public const string AmqpFraming = "AMQP framing (Microsoft.Azure.Amqp, the AMQP endpoint)";
    public const string Http = "HTTP (Kestrel, ASP.NET Core, the REST endpoints)";
    public const string Network = "sockets, kernel network";
    public const string Gc = "GC";
    public const string Jit = "JIT";
    public const string IdleSpin = "thread-pool idle spin (sched_yield)";
    public const string Other = "other";

    /// <summary>Every stage, in the order a table prints them.</summary>
    public static IReadOnlyList<string> All { get; } = [Fsync, LogWrite, Codec, AmqpFraming, Http, Network, Gc, Jit, IdleSpin, Other];

    private static readonly string[] FileIo = ["fsync", "fdatasync", "FlushToDisk", "SystemNative_FSync", "pwrite", "SystemNative_PWrite", "vfs_write", "ext4_", "jbd2", "blk_", "xfs_", "btrfs_", "file_write_iter", "iomap_"];
    private static readonly string[] NetworkCalls = ["tcp_", "inet_", "ip_", "sock_", "__sys_sendto", "__sys_recvfrom", "sendmsg", "recvmsg", "__send", "__libc_recv", "epoll", "skb", "net_rx", "__netif", "loopback_xmit"];
    private static readonly string[] NetworkModules = ["System.Net.Sockets", "Kestrel.Transport.Sockets", "libSystem.Native.so"];
    private static readonly string[] StorageFrames = ["SensorPipeline.EventHubs.Storage.", "SensorPipeline.Emulators.Common.LogStorage", "System.IO.RandomAccess"];
    private static readonly string[] CodecFrames = ["SensorPipeline.EventHubs.Amqp.AmqpEventCodec", "SensorPipeline.EventHubs.Http.BatchParser"];
    private static readonly string[] AmqpFrames = ["Microsoft.Azure.Amqp", "SensorPipeline.EventHubs.Amqp."];
    private static readonly string[] HttpFrames = ["Microsoft.AspNetCore.Server.Kestrel.Core", "Microsoft.AspNetCore.Http", "Microsoft.AspNetCore.Routing", "Microsoft.AspNetCore.Hosting", "SensorPipeline.EventHubs.Http."];

    /// <summary>The stage of one sample. The runtime's own library is stripped and ReadyToRun code (the shared
    /// framework: CoreLib, Kestrel, sockets) is not in the perf map, so such frames are known by their module only;
    /// JIT'd code (this repository's, Microsoft.Azure.Amqp) by its method. The garbage collector is known by its
    /// module when devhost loads the standalone GC (<see cref="PerfRecording.RuntimeEnvironment"/>) and by its
    /// background thread's name.</summary>
    public static string Of(PerfSample sample)
    {
        ArgumentNullException.ThrowIfNull(sample);
        var frames = sample.Frames;
        return Any(frames, FileIo) ? Fsync
            : sample.Thread.Contains("GC", StringComparison.Ordinal) || frames.Any(f => f.Module.Contains("libclrgc", StringComparison.Ordinal)) ? Gc
            : frames.Any(f => f.Module.EndsWith("libclrjit.so", StringComparison.Ordinal)) ? Jit
            : Any(frames, ["sched_yield", "LowLevelLifoSemaphore"]) ? IdleSpin
            : InNetworkCall(frames) ? Network
            : Any(frames, StorageFrames) ? LogWrite
            : Any(frames, CodecFrames) ? Codec
            : Any(frames, AmqpFrames) ? AmqpFraming
            : Any(frames, HttpFrames) ? Http
            : Any(frames, NetworkModules) ? Network
            : Other;
    }

    /// <summary>True when the sample is in a socket call: among the kernel and C library frames at its leaf (before
    /// the first frame of .NET code), one of the network stack's.</summary>
    private static bool InNetworkCall(IReadOnlyList<PerfFrame> frames)
    {
        foreach (var frame in frames)
        {
            var native = frame.Module is "[kernel.kallsyms]" || frame.Module.EndsWith("libc.so.6", StringComparison.Ordinal);
            if (!native)
            {
                return false;
            }

            if (NetworkCalls.Any(call => frame.Symbol.Contains(call, StringComparison.Ordinal)))
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>Each stage's share of <paramref name="samples"/> (0 to 1; every stage present, 0 when none fell there).</summary>
    public static IReadOnlyDictionary<string, double> Shares(IReadOnlyCollection<PerfSample> samples)
    {
        ArgumentNullException.ThrowIfNull(samples);
        var counts = All.ToDictionary(s => s, _ => 0);
        foreach (var sample in samples)
        {
            counts[Of(sample)]++;
        }

        return counts.ToDictionary(c => c.Key, c => samples.Count == 0 ? 0 : c.Value / (double)samples.Count);
    }

    /// <summary>True when a frame's method or module holds one of <paramref name="markers"/>.</summary>
    private static bool Any(IReadOnlyList<PerfFrame> frames, string[] markers)
    {
        foreach (var frame in frames)
        {
            foreach (var marker in markers)
            {
                if (frame.Symbol.Contains(marker, StringComparison.Ordinal) || frame.Module.Contains(marker, StringComparison.Ordinal))
                {
                    return true;
                }
            }
        }

        return false;
    }
}
