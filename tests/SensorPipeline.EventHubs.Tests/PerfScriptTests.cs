namespace SensorPipeline.EventHubs.Tests;

/// <summary><c>perf script</c>'s text read into samples, and each sample given to a stage of devhost's CPU
/// (<see cref="DevHostStages"/>), on an excerpt recorded from devhost under <c>./pipeline bench senders</c>
/// (Fixtures/perf-script-devhost.txt: twelve samples, kept whole).</summary>
public sealed class PerfScriptTests
{
    private static List<PerfSample> Recorded()
    {
        using var reader = new StreamReader(Path.Combine(AppContext.BaseDirectory, "Fixtures", "perf-script-devhost.txt"));
        return PerfScript.Parse(reader).ToList();
    }

    [Fact]
    public void Parse_RecordedExcerpt_ReadsEverySampleWithThreadAndStackLeafFirst()
    {
        var samples = Recorded();

        Assert.Equal(12, samples.Count);
        Assert.Equal(".NET TP Worker", samples[0].Thread);
        Assert.Equal(16346, samples[0].ThreadId);
        Assert.Equal(new PerfFrame("__rq_qos_throttle", "[kernel.kallsyms]"), samples[0].Frames[0]);
        Assert.Equal("start_thread", samples[0].Frames[^1].Symbol);
        Assert.Equal("Console logger", samples[7].Thread);
        Assert.Single(samples[7].Frames);

        // A managed method keeps its parentheses; the module is the last parenthesized group.
        var codec = samples[2].Frames.First(f => f.Symbol.Contains("AmqpEventCodec::PartitionKeyOf", StringComparison.Ordinal));
        Assert.EndsWith("[Optimized]", samples[2].Frames[1].Symbol, StringComparison.Ordinal);
        Assert.StartsWith("/tmp/perf-", codec.Module, StringComparison.Ordinal);
        Assert.Contains("(class [Microsoft.Azure.Amqp]Microsoft.Azure.Amqp.AmqpMessage)", codec.Symbol, StringComparison.Ordinal);
    }

    [Fact]
    public void Of_RecordedSamples_EachInItsStage()
    {
        string[] expected =
        [
            DevHostStages.Fsync, // fsync in ext4 under ActiveSegmentFiles.FlushLog
            DevHostStages.LogWrite, // the CRC of a record stamped by the writer loop
            DevHostStages.Codec, // AmqpEventCodec reading the message's sections through the AMQP library
            DevHostStages.Gc, // the background GC thread
            DevHostStages.IdleSpin, // a worker in sched_yield
            DevHostStages.Network, // descheduled in send(2)
            DevHostStages.Http, // Kestrel's ReadyToRun code, known by module only
            DevHostStages.Other, // the console logger waiting on a futex
            DevHostStages.Network, // the socket engine's epoll_wait
            DevHostStages.AmqpFraming, // the runtime clearing memory for a session's close
            DevHostStages.LogWrite, // the writer loop after a gather write
            DevHostStages.LogWrite, // an interface dispatch stub under the writer loop
        ];

        Assert.Equal(expected, Recorded().Select(DevHostStages.Of));
    }

    [Fact]
    public void Of_FrameInTheStandaloneGc_IsGc()
    {
        const string Text = """
            .NET TP Worker 4242 100.000001:    1001001 cpu-clock: 
            	    7f0000001000 [unknown] (/usr/share/dotnet/shared/Microsoft.NETCore.App/10.0.12/libclrgcexp.so)
            	    7f0000002000 instance void [SensorPipeline.EventHubs] SensorPipeline.EventHubs.Amqp.IncomingEvents::Start()[Optimized]+0x10 (/tmp/perf-4242.map)

            """;

        var sample = Assert.Single(PerfScript.Parse(new StringReader(Text)));

        Assert.Equal(DevHostStages.Gc, DevHostStages.Of(sample));
    }

    [Fact]
    public void Shares_RecordedSamples_SumToOneOverEveryStage()
    {
        var shares = DevHostStages.Shares(Recorded());

        Assert.Equal(DevHostStages.All.Order(StringComparer.Ordinal), shares.Keys.Order(StringComparer.Ordinal));
        Assert.Equal(1.0, shares.Values.Sum(), 9);
        Assert.Equal(3 / 12.0, shares[DevHostStages.LogWrite], 9);
        Assert.Equal(0, shares[DevHostStages.Jit]);
    }

    [Fact]
    public void Parse_HeaderThatIsNoSample_ThrowsNamingTheLine()
    {
        var e = Assert.Throws<FormatException>(() => PerfScript.Parse(new StringReader("not a perf line\n")).ToList());

        Assert.Contains("not a perf line", e.Message, StringComparison.Ordinal);
    }
}
