using System.Text.Json;
using SensorKind = SensorPipeline.Protos.SensorKind;

namespace SensorPipeline.Core.Readings;

/// <summary>What the pipeline derives from a <see cref="SensorKind"/>: the one place kinds map to names and payloads.</summary>
public static class SensorKinds
{
    private static readonly JsonEncodedText Weather = JsonEncodedText.Encode("weather");
    private static readonly JsonEncodedText Seismic = JsonEncodedText.Encode("seismic");

    /// <summary>True for the kinds the pipeline routes (weather, seismic); false for unspecified or unknown numbers.</summary>
    public static bool IsKnown(this SensorKind kind) => kind is SensorKind.Weather or SensorKind.Seismic;

    /// <summary>The kind's name in documents, ledgers and device ids: <c>weather</c> or <c>seismic</c>.</summary>
    /// <exception cref="ArgumentOutOfRangeException">For an unspecified or unknown kind (validation rejects those first).</exception>
    public static string Name(this SensorKind kind) => EncodedName(kind).Value;

    /// <summary><see cref="Name"/>, pre-encoded for <see cref="Utf8JsonWriter"/> on the hot path.</summary>
    public static JsonEncodedText EncodedName(this SensorKind kind) => kind switch
    {
        SensorKind.Weather => Weather,
        SensorKind.Seismic => Seismic,
        _ => throw new ArgumentOutOfRangeException(nameof(kind), kind, "weather or seismic"),
    };

    /// <summary>The payload a reading of this kind must carry; <see cref="PayloadCase.None"/> for an unknown kind.</summary>
    public static PayloadCase ExpectedPayload(this SensorKind kind) => kind switch
    {
        SensorKind.Weather => PayloadCase.Weather,
        SensorKind.Seismic => PayloadCase.Seismic,
        _ => PayloadCase.None,
    };
}
