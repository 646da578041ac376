namespace SensorPipeline.Testing;

/// <summary>What only the handler's tests add to the shared reading builders.</summary>
internal static partial class Builders
{
    /// <summary>A device id unique to one test, so tests sharing a database never see each other's documents.</summary>
    public static string Device(string prefix) => $"{prefix}-{Guid.NewGuid():N}"[..Math.Min(prefix.Length + 13, 64)];
}
