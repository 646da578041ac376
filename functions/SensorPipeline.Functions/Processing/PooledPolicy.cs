using Microsoft.Extensions.ObjectPool;

namespace SensorPipeline.Functions.Processing;

/// <summary>
/// Pools the core's splitters and envelope processors: each reuses its buffers and is not thread-safe, so one is
/// taken per concurrent invocation and returned when the invocation's writes are done.
/// </summary>
internal sealed class PooledPolicy<T>(Func<T> create) : PooledObjectPolicy<T>
    where T : notnull
{
    public override T Create() => create();

    public override bool Return(T obj) => true;
}
