using System.Buffers;
using SensorPipeline.Core.Wire;

namespace SensorPipeline.Core.Readings;

/// <summary>
/// Encodes a kind's payload from its measurements alone, as the generated message would: for producers (loadgen, the
/// plan's envelope model, tests) that treat every kind alike. Appended to a <c>Reading</c>'s bytes, or merged into a
/// generated <c>Reading</c> (<c>MergeFrom</c>), it sets the payload oneof.
/// </summary>
public static class PayloadEncoder
{
    /// <summary>The <c>Reading</c> field holding <paramref name="values"/> as <paramref name="kind"/>'s payload message.</summary>
    public static byte[] Encode(SensorKindDefinition kind, ReadOnlySpan<double> values)
    {
        ArgumentNullException.ThrowIfNull(kind);
        if (values.Length != kind.Measurements.Count)
        {
            throw new ArgumentException($"{kind.Name} has {kind.Measurements.Count} measurements, not {values.Length}", nameof(values));
        }

        var message = new ArrayBufferWriter<byte>(values.Length * 9);
        for (var i = 0; i < values.Length; i++)
        {
            ProtoWriter.WriteFixed64Field(message, i + 1, BitConverter.DoubleToUInt64Bits(values[i]));
        }

        var field = new ArrayBufferWriter<byte>(message.WrittenCount + 8);
        ProtoWriter.WriteLengthDelimitedField(field, kind.PayloadField, message.WrittenSpan);
        return field.WrittenSpan.ToArray();
    }
}
