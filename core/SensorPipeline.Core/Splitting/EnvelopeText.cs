using System.Buffers.Text;

namespace SensorPipeline.Core.Splitting;

/// <summary>
/// The text form of a <c>ForwardEnvelope</c> on the weather and seismic hubs: <c>~</c> followed by the envelope's
/// bytes in unpadded base64url. Why text: a custom handler can only hand the Functions host several events per
/// output as a JSON array, and the host sends each element as the UTF-8 of its text (no base64 decoding), so binary
/// must travel as text. Why base64url: none of its characters is escaped in JSON. Why <c>~</c>: 0x7E is protobuf
/// field 15 with wire type 6, which does not exist, so no raw protobuf envelope can start with it — a processor
/// dead-letters a body that is not a text envelope as undecodable, and never mistakes one for the other.
/// </summary>
public static class EnvelopeText
{
    /// <summary>The first byte of every text envelope.</summary>
    public const byte Marker = (byte)'~';

    /// <summary>Bytes the marker takes.</summary>
    public const int MarkerLength = 1;

    /// <summary>Length of the text form of an envelope of <paramref name="envelopeBytes"/> bytes.</summary>
    public static int EncodedLength(int envelopeBytes) => MarkerLength + Base64Url.GetEncodedLength(envelopeBytes);

    /// <summary>Writes the text form of <paramref name="envelope"/>; <paramref name="destination"/> must hold <see cref="EncodedLength"/> bytes.</summary>
    public static int Encode(ReadOnlySpan<byte> envelope, Span<byte> destination)
    {
        destination[0] = Marker;
        return MarkerLength + Base64Url.EncodeToUtf8(envelope, destination[MarkerLength..]);
    }

    /// <summary>True when <paramref name="body"/> is a text envelope (else it is a binary one, or garbage).</summary>
    public static bool IsText(ReadOnlySpan<byte> body) => !body.IsEmpty && body[0] == Marker;

    /// <summary>Room needed to decode the text envelope <paramref name="text"/>.</summary>
    public static int MaxDecodedLength(ReadOnlySpan<byte> text) => Base64Url.GetMaxDecodedLength(Math.Max(0, text.Length - MarkerLength));

    /// <summary>Decodes a text envelope into <paramref name="destination"/>; false when it is not valid base64url.</summary>
    public static bool TryDecode(ReadOnlySpan<byte> text, Span<byte> destination, out int written)
    {
        written = 0;
        // The OperationStatus overload: TryDecodeFromUtf8 throws on invalid characters instead of answering false.
        return IsText(text)
            && Base64Url.DecodeFromUtf8(text[MarkerLength..], destination, out _, out written) == System.Buffers.OperationStatus.Done;
    }
}
