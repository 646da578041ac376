namespace SensorPipeline.EndToEnd.Bench;

/// <summary>
/// How the chain's ceiling is measured (<see cref="ChainCeiling"/>), by <c>bench e2e</c> and by <c>bench backlog</c>
/// alike, with the handler settings every stack of the run gets.
/// </summary>
/// <param name="WriteParallelism">The handler's <c>Pipeline__WriteParallelism</c> on every stack of the run.</param>
/// <param name="RawParallelism">Concurrent upserts of the raw loop.</param>
/// <param name="RawDuration">How long the raw loop runs.</param>
/// <param name="Duration">How long loadgen offers load in the ceiling phase.</param>
/// <param name="DevicesPerKind">Weather devices and as many seismic ones.</param>
internal sealed record CeilingSettings(int WriteParallelism, int RawParallelism, TimeSpan RawDuration, TimeSpan Duration, int DevicesPerKind)
{
    /// <summary>The ceiling phase offers this many times the raw loop's documents/s unless <see cref="Rate"/> says
    /// otherwise: the chain writes in bulk and a device state per ~10 readings, so it carries several times what 64
    /// point upserts do, and an offer below what it carries would measure the offer, not the chain.</summary>
    public const double OverRaw = 8;

    /// <summary>The rate loadgen offers in the ceiling phase (<c>--ceiling-rate</c>); null: <see cref="OverRaw"/> × the
    /// raw loop's documents/s.</summary>
    public double? Rate { get; init; }

    /// <summary>At most this many readings in the ceiling phase (<c>--ceiling-readings</c>, default 400,000): the
    /// emulator's memory grows with every document it holds.</summary>
    public long MaxReadings { get; init; } = 400_000;

    /// <summary>loadgen's <c>--readings-per-event</c> in the chain phases; null: loadgen's own default.</summary>
    public int? ReadingsPerEvent { get; init; }

    /// <summary>The environment every stack of the run gives devhost and, through it, the handler.</summary>
    public Dictionary<string, string> Environment() => new()
    {
        ["Pipeline__WriteParallelism"] = WriteParallelism.ToString(CultureInfo.InvariantCulture),
    };

    /// <summary>The rate the ceiling phase offers, after the raw loop measured <paramref name="raw"/>.</summary>
    public double OfferedRate(PhaseFigures raw) => Math.Ceiling(Rate ?? raw.DocumentsPerSecond * OverRaw);

    /// <summary>The options that set these, shared by the benches that measure the ceiling.</summary>
    internal sealed class Options
    {
        private readonly Option<int> _writeParallelism = Numbers.Whole("--write-parallelism", "The handler's Pipeline__WriteParallelism", 64, 1, 1024);
        private readonly Option<int> _rawParallelism = Numbers.Whole("--raw-parallelism", "Concurrent upserts of the raw loop", 64, 1, 1024);
        private readonly Option<double?> _rawSeconds = Numbers.Optional("--raw-seconds", "Seconds of the raw upsert loop (default 15; --quick 5)", 1, 600);
        private readonly Option<double?> _ceilingSeconds = Numbers.Optional("--ceiling-seconds", "Seconds of the ceiling run (default 30; --quick 15)", 1, 600);
        private readonly Option<double?> _ceilingRate = Numbers.Optional("--ceiling-rate", $"Readings/s loadgen offers in the ceiling run (default {OverRaw}× the raw loop's documents/s)", 100, 200_000);
        private readonly Option<long> _ceilingReadings = Numbers.WholeLong("--ceiling-readings", "At most this many readings in the ceiling run", 400_000, 1_000, 2_000_000);

        /// <summary>Every option, in the order a command's help lists them.</summary>
        public Option[] All => [_writeParallelism, _rawParallelism, _rawSeconds, _ceilingSeconds, _ceilingRate, _ceilingReadings];

        /// <summary>The settings as given; <paramref name="quick"/> shortens the raw loop and the ceiling run unless
        /// their options are given.</summary>
        public CeilingSettings Read(ParseResult parse, bool quick, int devicesPerKind, int? readingsPerEvent) => new(
            parse.GetValue(_writeParallelism), parse.GetValue(_rawParallelism),
            TimeSpan.FromSeconds(parse.GetValue(_rawSeconds) ?? (quick ? 5 : 15)), TimeSpan.FromSeconds(parse.GetValue(_ceilingSeconds) ?? (quick ? 15 : 30)), devicesPerKind)
        {
            Rate = parse.GetValue(_ceilingRate),
            MaxReadings = parse.GetValue(_ceilingReadings),
            ReadingsPerEvent = readingsPerEvent,
        };
    }
}
