namespace SensorPipeline.EventHubs.Bench;

/// <summary>What the Event Hubs bench runs with (<see cref="Options"/> reads it from the command line).</summary>
internal sealed record BenchSettings(int Seconds, int Connections, int BatchSize, int BodyBytes, int ReadEvents)
{
    /// <summary>The bench's options, one set per command (System.CommandLine options belong to one command each).</summary>
    public sealed class Options
    {
        private readonly Option<int> _seconds = Numbers.Whole("--seconds", "Seconds per HTTP case", 5, 1, 3600);
        private readonly Option<int> _connections = Numbers.Whole("--connections", "Connections (callers) in flight", 32, 1, 1024);
        private readonly Option<int> _batch = Numbers.Whole("--batch", "Events per batch POST", 500, 1, 10_000);
        private readonly Option<long> _body = Sizes.Option("--body", $"Bytes per event body ({Sizes.Syntax}).", 100, minimum: 1, maximum: 1 << 20);
        private readonly Option<int> _readEvents = Numbers.Whole("--read-events", "Events written, then read in-process", 1_000_000, 1, 100_000_000);

        /// <summary>Adds the options to <paramref name="command"/>; returns it.</summary>
        public Command AddTo(Command command) => command.With(_seconds, _connections, _batch, _body, _readEvents);

        public BenchSettings Read(ParseResult parse) =>
            new(parse.GetValue(_seconds), parse.GetValue(_connections), parse.GetValue(_batch), (int)parse.GetValue(_body), parse.GetValue(_readEvents));
    }
}
