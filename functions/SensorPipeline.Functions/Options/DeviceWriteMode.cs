namespace SensorPipeline.Functions.Options;

/// <summary>How the guarded write to <c>devices</c> is done (both keep the newest reading; see DeviceStateGuard).</summary>
internal enum DeviceWriteMode
{
    /// <summary>Patch with the filter predicate <c>c.version &lt; new</c>: compare and write in one atomic operation.</summary>
    Patch,

    /// <summary>Point read, compare here, replace conditioned on the ETag read (412 → read again).</summary>
    ReadReplace,
}
