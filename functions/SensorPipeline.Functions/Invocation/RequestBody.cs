namespace SensorPipeline.Functions.Invocation;

/// <summary>The request body cap Kestrel enforces (<c>MaxRequestBodySize</c>); the body itself is streamed, never held whole.</summary>
internal static class RequestBody
{
    /// <summary>
    /// The largest body accepted for a host whose batches hold <paramref name="maxEventBatchSize"/> events: per event
    /// 8 MB — the body as the host writes a <c>dataType: binary</c> trigger's data, base64 (4/3 of at most 1 MB; an
    /// envelope is its protobuf bytes, so this is the only encoding), plus its properties and system properties, which
    /// share the event's 1 MB and may each grow up to six-fold as escaped JSON — plus 1 MB for the rest. At host.json's
    /// 2 events: 17 MB.
    /// </summary>
    public static long MaxBytes(int maxEventBatchSize) => (maxEventBatchSize * 8L * 1024 * 1024) + (1024 * 1024);
}
