namespace SensorPipeline.EventHubs.Bench;

internal sealed record BenchSettings(int Seconds, int Connections, int BatchSize, int BodyBytes, int ReadEvents)
{
    public static BenchSettings Parse(string[] args)
    {
        var s = new BenchSettings(Seconds: 5, Connections: 32, BatchSize: 500, BodyBytes: 100, ReadEvents: 1_000_000);
        for (var i = 0; i + 1 < args.Length; i += 2)
        {
            var value = int.Parse(args[i + 1], CultureInfo.InvariantCulture);
            s = args[i] switch
            {
                "--seconds" => s with { Seconds = value },
                "--connections" => s with { Connections = value },
                "--batch" => s with { BatchSize = value },
                "--body" => s with { BodyBytes = value },
                "--read-events" => s with { ReadEvents = value },
                _ => throw new ArgumentException($"unknown option {args[i]}; options: --seconds --connections --batch --body --read-events"),
            };
        }

        return s;
    }
}
