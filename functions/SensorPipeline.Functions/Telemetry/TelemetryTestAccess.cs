using System.Runtime.CompilerServices;

// The telemetry tests drive PipelineMetrics with the real SDK against devhost's ingestion endpoint.
[assembly: InternalsVisibleTo("SensorPipeline.Telemetry.Tests")]
