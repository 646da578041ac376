namespace SensorPipeline.EndToEnd.Tests;

/// <summary>These tests each load both cores (a publish, a whole pipeline): one at a time.</summary>
[CollectionDefinition(Name, DisableParallelization = true)]
public static class OneAtATime
{
    public const string Name = "machine";
}
