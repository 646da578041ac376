using SensorPipeline.CosmosEmulator.Log;

namespace SensorPipeline.CosmosEmulator.Documents;

/// <summary>The document versions one log record writes to one container: staged as pending while the record waits for
/// the log, committed (visible to readers) by the log's writer once the record is durable, dropped when it is not
/// written.</summary>
internal sealed class PendingWrite : IRecordEffect
{
    private readonly ContainerState _container;
    private readonly int _generation;
    private readonly (string PartitionKey, string Id, StoredDocument? Document)[] _versions;

    /// <summary>Stages <paramref name="versions"/> (null document: a delete); the caller holds the container's lock.</summary>
    public PendingWrite(ContainerState container, (string PartitionKey, string Id, StoredDocument? Document)[] versions)
    {
        (_container, _versions, _generation) = (container, versions, container.Pending.Generation);
        foreach (var (key, id, document) in versions)
        {
            container.Pending.Stage(key, id, document, this);
        }
    }

    public bool IsCurrent => _container.Pending.Generation == _generation;

    public void Apply()
    {
        lock (_container.Gate)
        {
            foreach (var (key, id, document) in _versions)
            {
                _container.Commit(key, id, document, this);
            }
        }
    }

    public void Discard(bool writeFailed)
    {
        lock (_container.Gate)
        {
            if (writeFailed)
            {
                _container.Pending.Discard();
                return;
            }

            foreach (var (key, id, _) in _versions)
            {
                _container.Pending.Unstage(key, id, this);
            }
        }
    }
}
