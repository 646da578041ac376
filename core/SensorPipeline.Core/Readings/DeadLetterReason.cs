namespace SensorPipeline.Core.Readings;

/// <summary>
/// Why an event or a reading could not enter the live view. Stored with every dead letter
/// (as <see cref="DeadLetterReasons.Code"/>) so operators can count and replay them by cause.
/// </summary>
public enum DeadLetterReason
{
    None = 0,

    // Event-level: the whole event body is unusable.
    EmptyBody,
    Undecodable,

    // Reading-level: one reading too large to forward on its own (the rest of its event proceeds).
    Oversize,

    // Reading-level: one reading is unusable, the rest of its event proceeds.
    MissingDeviceId,
    InvalidDeviceId,
    UnknownKind,
    PayloadMismatch,
    ZeroSequence,
    MissingObservedAt,
    InvalidObservedAt,
    MissingLocation,
    InvalidCoordinates,
    NonFiniteMeasurement,

    // Write-level: Cosmos DB rejected the document permanently (400, 413).
    RejectedByStore,

    // Envelope-level: a source position no splitter writes (an enqueued time outside the calendar, say).
    InvalidSource,

    // Isolated by the handler: this event failed on its own, repeatedly, while the rest of its batch succeeded.
    FailedInIsolation,

    // Event-level, after its valid readings were forwarded: too many invalid readings to store one by one.
    ManyInvalidReadings,
}

/// <summary>Stable text codes and human descriptions for <see cref="DeadLetterReason"/>.</summary>
public static class DeadLetterReasons
{
    /// <summary>The code stored in dead letters and used as a metric dimension; never renamed.</summary>
    public static string Code(DeadLetterReason reason) => reason switch
    {
        DeadLetterReason.None => "none",
        DeadLetterReason.EmptyBody => "empty-body",
        DeadLetterReason.Undecodable => "undecodable",
        DeadLetterReason.Oversize => "oversize",
        DeadLetterReason.MissingDeviceId => "missing-device-id",
        DeadLetterReason.InvalidDeviceId => "invalid-device-id",
        DeadLetterReason.UnknownKind => "unknown-kind",
        DeadLetterReason.PayloadMismatch => "payload-mismatch",
        DeadLetterReason.ZeroSequence => "zero-sequence",
        DeadLetterReason.MissingObservedAt => "missing-observed-at",
        DeadLetterReason.InvalidObservedAt => "invalid-observed-at",
        DeadLetterReason.MissingLocation => "missing-location",
        DeadLetterReason.InvalidCoordinates => "invalid-coordinates",
        DeadLetterReason.NonFiniteMeasurement => "non-finite-measurement",
        DeadLetterReason.RejectedByStore => "rejected-by-store",
        DeadLetterReason.InvalidSource => "invalid-source",
        DeadLetterReason.FailedInIsolation => "failed-in-isolation",
        DeadLetterReason.ManyInvalidReadings => "many-invalid-readings",
        _ => throw new ArgumentOutOfRangeException(nameof(reason), reason, null),
    };

    /// <summary>A sentence for people reading the dead letter.</summary>
    public static string Describe(DeadLetterReason reason) => reason switch
    {
        DeadLetterReason.EmptyBody => "the event body is empty",
        DeadLetterReason.Undecodable => "the event body is not a well-formed protobuf message of the expected type",
        DeadLetterReason.Oversize => "the reading alone is too large to forward: its envelope would not fit one Event Hubs event (1 MB)",
        DeadLetterReason.MissingDeviceId => "the reading has no device id",
        DeadLetterReason.InvalidDeviceId => "the device id is over 128 bytes, not UTF-8, or contains '/', '\\', '?', '#' or a control character (Cosmos DB id rules)",
        DeadLetterReason.UnknownKind => "the sensor kind is unspecified or unknown",
        DeadLetterReason.PayloadMismatch => "the payload is missing or does not match the sensor kind",
        DeadLetterReason.ZeroSequence => "the per-device sequence number is 0 (sequences start at 1)",
        DeadLetterReason.MissingObservedAt => "the reading has no observed-at time",
        DeadLetterReason.InvalidObservedAt => "the observed-at time is outside the protobuf Timestamp range",
        DeadLetterReason.MissingLocation => "the reading has no location",
        DeadLetterReason.InvalidCoordinates => "latitude must be within ±90, longitude within ±180 and altitude finite",
        DeadLetterReason.NonFiniteMeasurement => "a measurement is NaN or infinite (JSON cannot carry it)",
        DeadLetterReason.RejectedByStore => "Cosmos DB rejected the document permanently",
        DeadLetterReason.InvalidSource => "a source position of the envelope is out of range (enqueued time outside 0001-01-01 … 9999-12-31, or an over-long partition id)",
        DeadLetterReason.FailedInIsolation => "processing this event failed repeatedly on its own while the rest of its batch succeeded (see detail)",
        DeadLetterReason.ManyInvalidReadings => "the event holds more invalid readings than are stored one by one; its valid readings were forwarded and the invalid ones are kept here as one batch of their exact bytes",
        _ => Code(reason),
    };
}
