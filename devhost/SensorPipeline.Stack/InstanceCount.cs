namespace SensorPipeline.Stack;

/// <summary><c>--instances</c>: a fixed number of instances per function, or <see cref="Auto"/> (the target-based
/// scaler decides).</summary>
public sealed record InstanceCount(int? Fixed)
{
    public static InstanceCount Auto { get; } = new((int?)null);

    public bool IsAuto => Fixed is null;

    public override string ToString() => Fixed?.ToString(CultureInfo.InvariantCulture) ?? "auto";
}
