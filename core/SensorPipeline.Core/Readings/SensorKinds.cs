using System.Text.Json;
using SensorKind = SensorPipeline.Protos.SensorKind;

namespace SensorPipeline.Core.Readings;

/// <summary>A kind's facts from the product's catalog (<see cref="SensorKindCatalog.Default"/>), as extension methods.</summary>
public static class SensorKinds
{
    /// <summary>True for the kinds the pipeline routes; false for unspecified or unknown numbers.</summary>
    public static bool IsKnown(this SensorKind kind) => SensorKindCatalog.Default.Find(kind) is not null;

    /// <summary>The kind's definition in <c>sensor-kinds.json</c>.</summary>
    /// <exception cref="ArgumentOutOfRangeException">For an unspecified or unknown kind (validation rejects those first).</exception>
    public static SensorKindDefinition Definition(this SensorKind kind) => SensorKindCatalog.Default.Get(kind);

    /// <summary>The kind's name in documents, ledgers and device ids (<c>weather</c>).</summary>
    /// <exception cref="ArgumentOutOfRangeException">For an unspecified or unknown kind.</exception>
    public static string Name(this SensorKind kind) => kind.Definition().Name;

    /// <summary><see cref="Name"/>, pre-encoded for <see cref="Utf8JsonWriter"/> on the hot path.</summary>
    public static JsonEncodedText EncodedName(this SensorKind kind) => kind.Definition().EncodedName;
}
