using SensorPipeline.Core.Policies;
using SensorPipeline.Core.Processing;
using SensorPipeline.Core.Readings;
using SensorPipeline.Core.Splitting;
using SensorPipeline.Functions.Invocation;

namespace SensorPipeline.Functions.Bench;

/// <summary>Fresh processed invocations: the same devices every time with rising sequences, as a fleet reports;
/// <paramref name="deviceIds"/>, when given, names the devices (else <c>dev-00000</c>…).</summary>
internal sealed class Batches(int devices, int size, IReadOnlyList<string>? deviceIds = null) : IDisposable
{
    private readonly Splitter _splitter = new();
    private readonly List<EnvelopeProcessor> _processors = [];
    private readonly List<InvocationRequest> _requests = [];
    private ulong _sequence;
    private int _offset;

    public List<Invocation> Next(int count)
    {
        Dispose();
        var invocations = new List<Invocation>(count);
        for (var i = 0; i < count; i++)
        {
            var now = DateTimeOffset.UtcNow;
            var perDevice = (ulong)Math.Max(1, size / devices);
            var ids = deviceIds is null ? null : Enumerable.Range(0, Math.Min(size, devices)).Select(d => deviceIds[(_offset + d) % deviceIds.Count]).ToArray();
            _offset += deviceIds is null ? 0 : Math.Min(size, devices);
            var ingestion = Workload.IngestionEvents(1, size, Math.Min(size, devices), "dev", mixedKinds: false, now, sequenceBase: _sequence, ids);
            _sequence += perDevice + 1;
            var events = _splitter.Split(ingestion, now.ToUnixTimeMilliseconds()).Weather
                .Select(envelope => new InputEvent(envelope.ToArray(), new SourcePosition("0", (long)_sequence, now.ToUnixTimeMilliseconds()))).ToArray();
            var processor = new EnvelopeProcessor(SensorPipeline.Protos.SensorKind.Weather, "weather-processor", new StalenessPolicy(StalenessPolicy.DefaultMaxAge));
            _processors.Add(processor);
            var request = new InvocationRequest(null, events, "0", 0);
            _requests.Add(request);
            invocations.Add(new Invocation(processor.Process(events, now.ToUnixTimeMilliseconds()), request, now));
        }

        return invocations;
    }

    public void Dispose()
    {
        _requests.ForEach(r => r.Dispose());
        _processors.ForEach(p => p.Dispose());
        _requests.Clear();
        _processors.Clear();
    }
}
