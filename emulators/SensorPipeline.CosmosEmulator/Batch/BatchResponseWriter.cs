using System.Buffers;
using System.Buffers.Binary;
using System.Text;

namespace SensorPipeline.CosmosEmulator.Batch;

/// <summary>
/// Writes the batch response body: a HybridRow RecordIO stream with one BatchResult row per operation, in request
/// order. The HTTP status and headers around it are the server's (see <see cref="BatchOutcome"/>).
/// </summary>
public static class BatchResponseWriter
{
    // BatchResult layout: presence byte (statusCode, subStatusCode, eTag, resourceBody), fixed int32 statusCode and
    // subStatusCode, then the present variable columns eTag and resourceBody, then sparse fields.
    private const int PresenceOffset = HybridRowFormat.HeaderSize;
    private const int FixedEnd = PresenceOffset + 1 + 4 + 4;
    private const byte PresenceStatus = 0b0011;
    private const byte BitETag = 1 << 2;
    private const byte BitResourceBody = 1 << 3;

    // Path tokens of the sparse columns (column order, from 1).
    private const byte TokenRetryAfterMilliseconds = 5;
    private const byte TokenRequestCharge = 6;

    /// <summary>Writes the response for <paramref name="results"/> to <paramref name="output"/>.</summary>
    public static void Write(IBufferWriter<byte> output, IReadOnlyList<BatchOperationResult> results)
    {
        ArgumentNullException.ThrowIfNull(output);
        ArgumentNullException.ThrowIfNull(results);

        RecordIoFraming.WriteSegment(output.GetSpan(RecordIoFraming.MinimalSegmentSize));
        output.Advance(RecordIoFraming.MinimalSegmentSize);

        foreach (var result in results)
        {
            var size = RowSize(result);
            var rented = ArrayPool<byte>.Shared.Rent(size);
            try
            {
                var row = rented.AsSpan(0, size);
                WriteRow(row, result);

                // The record header carries the row's CRC, so the row is built first and copied after it.
                var destination = output.GetSpan(RecordIoFraming.RecordHeaderSize + size);
                RecordIoFraming.WriteRecordHeader(destination, row);
                row.CopyTo(destination[RecordIoFraming.RecordHeaderSize..]);
                output.Advance(RecordIoFraming.RecordHeaderSize + size);
            }
            finally
            {
                ArrayPool<byte>.Shared.Return(rented);
            }
        }
    }

    private static int RowSize(BatchOperationResult result)
    {
        var size = FixedEnd;
        if (result.ETag is not null)
        {
            var etagBytes = Encoding.UTF8.GetByteCount(result.ETag);
            size += HybridRowFormat.VarUIntSize((ulong)etagBytes) + etagBytes;
        }

        if (!result.ResourceBody.IsEmpty)
        {
            size += HybridRowFormat.VarUIntSize((ulong)result.ResourceBody.Length) + result.ResourceBody.Length;
        }

        if (result.RetryAfterMilliseconds is not null)
        {
            size += 2 + 4;
        }

        return size + 2 + 8;
    }

    private static void WriteRow(Span<byte> row, BatchOperationResult result)
    {
        HybridRowFormat.WriteHeader(row, HybridRowFormat.BatchResultSchemaId);
        var presence = PresenceStatus;
        BinaryPrimitives.WriteInt32LittleEndian(row[(PresenceOffset + 1)..], result.StatusCode);
        BinaryPrimitives.WriteInt32LittleEndian(row[(PresenceOffset + 5)..], result.SubStatusCode);

        var offset = FixedEnd;
        if (result.ETag is not null)
        {
            presence |= BitETag;
            var etagBytes = Encoding.UTF8.GetByteCount(result.ETag);
            offset += HybridRowFormat.WriteVarUInt(row[offset..], (ulong)etagBytes);
            offset += Encoding.UTF8.GetBytes(result.ETag, row[offset..]);
        }

        if (!result.ResourceBody.IsEmpty)
        {
            presence |= BitResourceBody;
            offset += HybridRowFormat.WriteVarUInt(row[offset..], (ulong)result.ResourceBody.Length);
            result.ResourceBody.Span.CopyTo(row[offset..]);
            offset += result.ResourceBody.Length;
        }

        row[PresenceOffset] = presence;

        if (result.RetryAfterMilliseconds is uint retryAfter)
        {
            row[offset++] = HybridRowFormat.CodeUInt32;
            row[offset++] = TokenRetryAfterMilliseconds;
            BinaryPrimitives.WriteUInt32LittleEndian(row[offset..], retryAfter);
            offset += 4;
        }

        row[offset++] = HybridRowFormat.CodeFloat64;
        row[offset++] = TokenRequestCharge;
        BinaryPrimitives.WriteDoubleLittleEndian(row[offset..], result.RequestCharge);
    }
}
