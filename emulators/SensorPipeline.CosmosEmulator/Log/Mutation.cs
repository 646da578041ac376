namespace SensorPipeline.CosmosEmulator.Log;

/// <summary>What one log record changes. Every mutation states the resulting state (put or delete), never a delta, so
/// replaying a mutation twice (a snapshot taken while it was in flight, then the mutation) is harmless.</summary>
internal enum MutationKind : byte
{
    PutDocument = 1,
    DeleteDocument = 2,
    PutDatabase = 3,
    DeleteDatabase = 4,
    PutContainer = 5,
    DeleteContainer = 6,
}

/// <summary>One decoded mutation. For documents <see cref="Body"/> is the stored JSON (system properties included);
/// for databases and containers it is the resource JSON.</summary>
internal readonly record struct Mutation(
    MutationKind Kind,
    string Database,
    string Container,
    string PartitionKey,
    string Id,
    ReadOnlyMemory<byte> Body,
    string ETag,
    long Timestamp,
    int? TimeToLive);
