namespace SensorPipeline.Core.Tests;

public class ReadingValidatorTests
{
    private static DeadLetterReason Validate(Reading reading)
    {
        Assert.True(ReadingDecoder.TryDecode(reading.ToByteArray(), out var view));
        return ReadingValidator.Validate(view);
    }

    [Fact]
    public void Validate_GoodReadings_Pass()
    {
        Assert.Equal(DeadLetterReason.None, Validate(Builders.Weather()));
        Assert.Equal(DeadLetterReason.None, Validate(Builders.Seismic()));
    }

    public static TheoryData<string, DeadLetterReason> BrokenReadings => new()
    {
        { "missing-device-id", DeadLetterReason.MissingDeviceId },
        { "slash-in-device-id", DeadLetterReason.InvalidDeviceId },
        { "hash-in-device-id", DeadLetterReason.InvalidDeviceId },
        { "control-char-in-device-id", DeadLetterReason.InvalidDeviceId },
        { "device-id-129-bytes", DeadLetterReason.InvalidDeviceId },
        { "kind-unspecified", DeadLetterReason.UnknownKind },
        { "kind-unknown-number", DeadLetterReason.UnknownKind },
        { "weather-kind-seismic-payload", DeadLetterReason.PayloadMismatch },
        { "no-payload", DeadLetterReason.PayloadMismatch },
        { "sequence-zero", DeadLetterReason.ZeroSequence },
        { "no-observed-at", DeadLetterReason.MissingObservedAt },
        { "observed-at-negative-nanos", DeadLetterReason.InvalidObservedAt },
        { "no-location", DeadLetterReason.MissingLocation },
        { "latitude-nan", DeadLetterReason.InvalidCoordinates },
        { "latitude-91", DeadLetterReason.InvalidCoordinates },
        { "longitude-minus-180.5", DeadLetterReason.InvalidCoordinates },
        { "altitude-infinite", DeadLetterReason.InvalidCoordinates },
        { "temperature-nan", DeadLetterReason.NonFiniteMeasurement },
        { "magnitude-infinite", DeadLetterReason.NonFiniteMeasurement },
    };

    [Theory]
    [MemberData(nameof(BrokenReadings))]
    public void Validate_BrokenReading_GivesReason(string breakage, DeadLetterReason expected)
    {
        var r = breakage.StartsWith("magnitude", StringComparison.Ordinal) ? Builders.Seismic() : Builders.Weather();
        switch (breakage)
        {
            case "missing-device-id": r.DeviceId = ""; break;
            case "slash-in-device-id": r.DeviceId = "a/b"; break;
            case "hash-in-device-id": r.DeviceId = "a#b"; break;
            case "control-char-in-device-id": r.DeviceId = "a\nb"; break;
            case "device-id-129-bytes": r.DeviceId = new string('d', 129); break;
            case "kind-unspecified": r.Kind = SensorKind.Unspecified; break;
            case "kind-unknown-number": r.Kind = (SensorKind)7; break;
            case "weather-kind-seismic-payload": r.Seismic = new SeismicPayload { Magnitude = 1 }; break;
            case "no-payload": r.ClearPayload(); break;
            case "sequence-zero": r.Sequence = 0; break;
            case "no-observed-at": r.ObservedAt = null; break;
            case "observed-at-negative-nanos": r.ObservedAt.Nanos = -1; break;
            case "no-location": r.Location = null; break;
            case "latitude-nan": r.Location.Latitude = double.NaN; break;
            case "latitude-91": r.Location.Latitude = 91; break;
            case "longitude-minus-180.5": r.Location.Longitude = -180.5; break;
            case "altitude-infinite": r.Location.AltitudeM = double.PositiveInfinity; break;
            case "temperature-nan": r.Weather.TemperatureC = double.NaN; break;
            case "magnitude-infinite": r.Seismic.Magnitude = double.NegativeInfinity; break;
            default: throw new ArgumentOutOfRangeException(nameof(breakage));
        }

        Assert.Equal(expected, Validate(r));
    }

    [Fact]
    public void Validate_BoundaryCoordinates_Pass()
    {
        Assert.Equal(DeadLetterReason.None, Validate(Builders.Weather(lat: 90, lon: -180)));
        Assert.Equal(DeadLetterReason.None, Validate(Builders.Weather(lat: -90, lon: 180)));
    }

    [Fact]
    public void Code_EveryReason_StableAndDistinct()
    {
        var codes = Enum.GetValues<DeadLetterReason>().Select(DeadLetterReasons.Code).ToList();
        Assert.Equal(codes.Count, codes.Distinct().Count());
        Assert.Equal("oversize", DeadLetterReasons.Code(DeadLetterReason.Oversize));
    }
}
