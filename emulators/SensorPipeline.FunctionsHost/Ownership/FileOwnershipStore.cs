using System.Diagnostics;
using System.Globalization;
using SensorPipeline.FunctionsHost.Checkpoints;

namespace SensorPipeline.FunctionsHost.Ownership;

/// <summary>Ownership records on disk, shared by instances in several processes on one machine: per hub / consumer
/// group, one record per partition in the checkpoint store's two-slot, checksummed format (<see cref="SlotFile"/>; the
/// version is the slot generation), so a write torn by a crash leaves the previous record — the claim simply did not
/// happen. Each compare-and-swap runs under an exclusive lock on the scope's <c>.lock</c> file (an advisory
/// <c>flock</c>, taken by <see cref="FileShare.None"/> on Unix), which the kernel releases when its process dies, so a
/// killed instance cannot leave the store locked.</summary>
public sealed class FileOwnershipStore : IOwnershipStore
{
    private const string Extension = "ownership";
    private const string LockFileName = ".lock";
    // A held lock surfaces as IOException with HResult ERROR_SHARING_VIOLATION on Windows and errno EWOULDBLOCK on Linux.
    private const int SharingViolation = unchecked((int)0x80070020);
    private const int WouldBlock = 11;
    private static readonly TimeSpan LockTimeout = TimeSpan.FromSeconds(30);

    private readonly string _root;
    private readonly TimeProvider _time;
    private readonly bool _fsync;

    /// <param name="dataDirectory">The devhost data directory; records live under <c>ownership/</c> in it.</param>
    /// <param name="time">The clock of last-modified times.</param>
    /// <param name="fsync">Flush each write to disk before the claim counts (default true).</param>
    public FileOwnershipStore(string dataDirectory, TimeProvider time, bool fsync = true)
    {
        _root = Path.Combine(Path.GetFullPath(dataDirectory), "ownership");
        _time = time;
        _fsync = fsync;
    }

    public async Task<IReadOnlyList<PartitionOwnership>> ListAsync(OwnershipScope scope, CancellationToken cancellationToken)
    {
        var directory = ScopeDirectory(scope);
        if (!Directory.Exists(directory))
        {
            return [];
        }

        // Reads take no lock: a slot is either intact (an old or a new record, both valid answers) or fails its check.
        var partitions = Directory.EnumerateFiles(directory, "*." + Extension)
            .Select(path => Path.GetFileName(path).Split('.')[0])
            .Distinct(StringComparer.Ordinal)
            .Order(StringComparer.Ordinal);
        var records = new List<PartitionOwnership>();
        foreach (var partitionId in partitions)
        {
            if (await ReadAsync(directory, partitionId, cancellationToken) is { } record)
            {
                records.Add(record);
            }
        }

        return records;
    }

    public async Task<PartitionOwnership?> TryClaimAsync(OwnershipScope scope, OwnershipClaim claim, CancellationToken cancellationToken)
    {
        if (claim.OwnerId.Contains(' ', StringComparison.Ordinal) || claim.PartitionId.Contains('.', StringComparison.Ordinal))
        {
            throw new ArgumentException($"owner id '{claim.OwnerId}' must not contain spaces and partition id '{claim.PartitionId}' no dots", nameof(claim));
        }

        var directory = ScopeDirectory(scope);
        Directory.CreateDirectory(directory);
        await using var lockFile = await LockAsync(Path.Combine(directory, LockFileName), cancellationToken);
        var current = await ReadAsync(directory, claim.PartitionId, cancellationToken);
        if ((current?.Version ?? 0) != claim.ExpectedVersion)
        {
            return null;
        }

        var record = new PartitionOwnership(claim.PartitionId, claim.OwnerId, _time.GetUtcNow(), claim.ExpectedVersion + 1);
        // "-" stands for "no owner" so the slot line keeps a fixed field count.
        var fields = string.Create(CultureInfo.InvariantCulture, $"{(record.OwnerId.Length == 0 ? "-" : record.OwnerId)} {record.LastModified:O}");
        await SlotFile.WriteAsync(directory, claim.PartitionId, Extension, record.Version, fields, _fsync, cancellationToken);
        return record;
    }

    private static async Task<PartitionOwnership?> ReadAsync(string directory, string partitionId, CancellationToken cancellationToken)
    {
        var (fields, damaged) = await SlotFile.ReadNewestAsync(directory, partitionId, Extension, cancellationToken);
        if (fields is not { Length: 3 })
        {
            // One torn slot is the first claim interrupted by a crash: no record. Two cannot come from one torn write.
            return damaged > 1
                ? throw new InvalidDataException($"{SlotFile.SlotPath(directory, partitionId, 0, Extension)} (and slot 1): no intact ownership record; delete both to release the partition")
                : null;
        }

        return new PartitionOwnership(
            partitionId,
            fields[1] == "-" ? string.Empty : fields[1],
            DateTimeOffset.Parse(fields[2], CultureInfo.InvariantCulture, DateTimeStyles.RoundtripKind),
            long.Parse(fields[0], CultureInfo.InvariantCulture));
    }

    // Waits for the scope's lock; the holder keeps it for one read and one small write, so short polls suffice.
    private static async Task<FileStream> LockAsync(string path, CancellationToken cancellationToken)
    {
        var started = Stopwatch.GetTimestamp();
        while (true)
        {
            try
            {
                return new FileStream(path, FileMode.OpenOrCreate, FileAccess.ReadWrite, FileShare.None, 1, FileOptions.None);
            }
            catch (IOException ex) when (ex.HResult is SharingViolation or WouldBlock)
            {
                if (Stopwatch.GetElapsedTime(started) > LockTimeout)
                {
                    throw new TimeoutException($"{path}: still locked by another instance after {LockTimeout.TotalSeconds:0} s", ex);
                }

                await Task.Delay(TimeSpan.FromMilliseconds(2), cancellationToken);
            }
        }
    }

    private string ScopeDirectory(OwnershipScope scope) => Path.Combine(_root, SlotFile.Safe(scope.Hub), SlotFile.Safe(scope.ConsumerGroup));
}
