using SensorPipeline.Core.Wire;

namespace SensorPipeline.Core.Readings;

/// <summary>
/// Walks the top-level framing of a <c>ReadingBatch</c> (field 1: repeated Reading) without decoding
/// the readings. <see cref="TryCheckFraming"/> runs first over the whole body so a truncated or garbage
/// event is dead-lettered whole — never half-processed, which would duplicate readings on replay.
/// </summary>
public static class ReadingBatchReader
{
    /// <summary>Field number of <c>ReadingBatch.readings</c>.</summary>
    public const int ReadingsField = 1;

    /// <summary>Checks the body's framing and counts its readings.</summary>
    public static DeadLetterReason TryCheckFraming(ReadOnlySpan<byte> body, out int readingCount)
    {
        readingCount = 0;
        if (body.IsEmpty)
        {
            return DeadLetterReason.EmptyBody;
        }

        var fields = new ProtoFields(body);
        while (fields.MoveNext(out var number, out var wireType))
        {
            if (number == ReadingsField && wireType == WireType.LengthDelimited)
            {
                readingCount++;
            }
        }

        if (fields.Malformed)
        {
            return DeadLetterReason.Undecodable;
        }

        // A non-empty body with no readings field is not a ReadingBatch we can use: keep it for a human.
        return readingCount == 0 ? DeadLetterReason.Undecodable : DeadLetterReason.None;
    }

    /// <summary>Enumerates the encoded readings of a body whose framing <see cref="TryCheckFraming"/> accepted.</summary>
    public static FieldEnumerator EnumerateReadings(ReadOnlySpan<byte> body) => new(body, ReadingsField);
}
