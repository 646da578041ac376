namespace SensorPipeline.Core.DeviceStates;

/// <summary>The newest reading of one device in a batch, for the guarded write to <c>devices</c>.</summary>
public readonly record struct DeviceLatest(
    string DeviceId,
    string Kind,
    ulong Sequence,
    DateTimeOffset ObservedAt,
    string Version,
    string ReadingId,
    double Longitude,
    double Latitude,
    double AltitudeM,
    long EnqueuedUnixMs,
    int DocumentOffset,
    int DocumentLength,
    int EnvelopeIndex = 0,
    int ReadingIndex = 0,
    int PendingIndex = -1);

/// <summary>
/// The device state a stale reading would give its device — a candidate only once the reading is known to be live
/// (<see cref="Processing.ProcessResult.DeviceWrites"/>). <see cref="PendingIndex"/> is the reading's archive document in
/// <see cref="Processing.ProcessResult.Pending"/>.
/// </summary>
public readonly record struct StaleDeviceState(int PendingIndex, DeviceLatest State);
