using System.Buffers.Binary;
using System.Text;

namespace SensorPipeline.CosmosEmulator.Batch;

/// <summary>
/// Parses a batch request body (TransactionalBatch, or a bulk request) into its operations. The body is a HybridRow
/// RecordIO stream: a segment header, then one record per operation whose row has the SDK's BatchOperation layout.
/// Anything else is a <see cref="BatchFormatException"/>: the request is refused whole, nothing executes.
/// </summary>
public static class BatchRequestReader
{
    // BatchOperation layout: presence byte, then fixed int32 operationType and resourceType, then the variable
    // columns in schema order, present when their bit is set.
    private const int PresenceOffset = HybridRowFormat.HeaderSize;
    private const int OperationTypeOffset = PresenceOffset + 1;
    private const int ResourceTypeOffset = OperationTypeOffset + 4;
    private const int VariableOffset = ResourceTypeOffset + 4;

    private const int BitPartitionKey = 1 << 2;
    private const int BitEffectivePartitionKey = 1 << 3;
    private const int BitId = 1 << 4;
    private const int BitBinaryId = 1 << 5;
    private const int BitResourceBody = 1 << 6;

    // Path tokens: the layout's column paths numbered from 1 in column order (0 is the empty path). A token at or
    // past TokenCount is a path spelled out inline: token - TokenCount UTF-8 bytes follow.
    private const int TokenIndexingDirective = 8;
    private const int TokenIfMatch = 9;
    private const int TokenIfNoneMatch = 10;
    private const int TokenTimeToLive = 11;
    private const int TokenMinimalReturnPreference = 12;
    private const int TokenCount = 13;

    private const int DocumentResourceType = 2;

    /// <summary>Reads every operation of <paramref name="body"/>; the result's byte fields are slices of it.</summary>
    /// <exception cref="BatchFormatException">The body is malformed, empty, or over <see cref="BatchLimits"/>.</exception>
    public static IReadOnlyList<BatchOperation> Read(ReadOnlyMemory<byte> body)
    {
        if (body.Length > BatchLimits.MaxBodyBytes)
        {
            throw new BatchFormatException(
                $"The batch request body is {body.Length} bytes; at most {BatchLimits.MaxBodyBytes} are allowed.", 413);
        }

        var operations = new List<BatchOperation>();
        var offset = 0;
        var segmentSeen = false;
        while (RecordIoFraming.TryReadRecord(body.Span, ref offset, ref segmentSeen, out var range))
        {
            if (operations.Count == BatchLimits.MaxOperations)
            {
                throw new BatchFormatException(
                    $"The batch request has more than {BatchLimits.MaxOperations} operations, the most one batch may carry.");
            }

            operations.Add(ReadOperation(body[range], operations.Count));
        }

        if (operations.Count == 0)
        {
            throw new BatchFormatException("The batch request has no operations.");
        }

        return operations;
    }

    private static BatchOperation ReadOperation(ReadOnlyMemory<byte> rowMemory, int index)
    {
        var what = $"Operation {index}";
        var row = rowMemory.Span;
        HybridRowFormat.ExpectHeader(row, HybridRowFormat.BatchOperationSchemaId, what);
        if (row.Length < VariableOffset)
        {
            throw new BatchFormatException($"{what}: {row.Length} bytes, shorter than the BatchOperation layout.");
        }

        int presence = row[PresenceOffset];
        var operationType = BinaryPrimitives.ReadInt32LittleEndian(row[OperationTypeOffset..]);
        var resourceType = BinaryPrimitives.ReadInt32LittleEndian(row[ResourceTypeOffset..]);
        if ((presence & 0b11) != 0b11)
        {
            throw new BatchFormatException($"{what}: operationType or resourceType is missing.");
        }

        if (!Enum.IsDefined((BatchOperationKind)operationType))
        {
            throw new BatchFormatException($"{what}: operation type {operationType} is not a batch item operation.");
        }

        if (resourceType != DocumentResourceType)
        {
            throw new BatchFormatException($"{what}: resource type {resourceType}; batches operate on documents (2) only.");
        }

        var offset = VariableOffset;
        var partitionKey = ReadVariableString(rowMemory, presence, BitPartitionKey, ref offset, what);
        var epk = ReadVariable(rowMemory, presence, BitEffectivePartitionKey, ref offset, what);
        var id = ReadVariableString(rowMemory, presence, BitId, ref offset, what);
        var binaryId = ReadVariable(rowMemory, presence, BitBinaryId, ref offset, what);
        var resourceBody = ReadVariable(rowMemory, presence, BitResourceBody, ref offset, what);

        var sparse = new SparseFields();
        ReadSparse(row, offset, ref sparse, what);

        var kind = (BatchOperationKind)operationType;
        var operation = new BatchOperation(
            index, kind, id, partitionKey, resourceBody, sparse.IfMatch, sparse.IfNoneMatch,
            sparse.IndexingDirective, sparse.TimeToLive, sparse.MinimalReturnPreference, epk, binaryId);
        Validate(operation, what);
        return operation;
    }

    private static void Validate(BatchOperation operation, string what)
    {
        var needsId = operation.Kind is not (BatchOperationKind.Create or BatchOperationKind.Upsert);
        var needsBody = operation.Kind is not (BatchOperationKind.Read or BatchOperationKind.Delete);
        if (needsId && string.IsNullOrEmpty(operation.Id))
        {
            throw new BatchFormatException($"{what}: {operation.Kind} needs an item id.");
        }

        if (needsBody && operation.ResourceBody.IsEmpty)
        {
            throw new BatchFormatException($"{what}: {operation.Kind} needs a resource body.");
        }
    }

    private static ReadOnlyMemory<byte> ReadVariable(
        ReadOnlyMemory<byte> row, int presence, int bit, ref int offset, string what)
    {
        if ((presence & bit) == 0)
        {
            return ReadOnlyMemory<byte>.Empty;
        }

        var length = HybridRowFormat.ReadLengthPrefixed(row.Span, ref offset, what).Length;
        return row.Slice(offset - length, length);
    }

    private static string? ReadVariableString(
        ReadOnlyMemory<byte> row, int presence, int bit, ref int offset, string what) =>
        (presence & bit) == 0 ? null : DecodeUtf8(ReadVariable(row, presence, bit, ref offset, what).Span, what);

    private static void ReadSparse(ReadOnlySpan<byte> row, int offset, ref SparseFields fields, string what)
    {
        while (offset < row.Length)
        {
            var code = row[offset++];
            var token = checked((int)Math.Min(HybridRowFormat.ReadVarUInt(row, ref offset, what), int.MaxValue));
            if (token >= TokenCount)
            {
                // An unknown, inline-spelled path: a newer SDK's field. Skip its name; its value is skipped below.
                var nameLength = token - TokenCount;
                if (nameLength > row.Length - offset)
                {
                    throw new BatchFormatException($"{what}: a sparse field name runs past the end of the row.");
                }

                offset += nameLength;
            }

            switch (token)
            {
                case TokenIndexingDirective:
                    fields.IndexingDirective = ReadSparseString(row, code, ref offset, what, "indexingDirective");
                    break;
                case TokenIfMatch:
                    fields.IfMatch = ReadSparseString(row, code, ref offset, what, "ifMatch");
                    break;
                case TokenIfNoneMatch:
                    fields.IfNoneMatch = ReadSparseString(row, code, ref offset, what, "ifNoneMatch");
                    break;
                case TokenTimeToLive:
                    ExpectCode(code, HybridRowFormat.CodeInt32, what, "timeToLiveInSeconds");
                    fields.TimeToLive = BinaryPrimitives.ReadInt32LittleEndian(Take(row, ref offset, 4, what));
                    break;
                case TokenMinimalReturnPreference:
                    if (code is not (HybridRowFormat.CodeBoolean or HybridRowFormat.CodeBooleanFalse))
                    {
                        throw new BatchFormatException($"{what}: minimalReturnPreference has type code {code}, not a boolean.");
                    }

                    fields.MinimalReturnPreference = code == HybridRowFormat.CodeBoolean;
                    break;
                default:
                    SkipValue(row, code, ref offset, what);
                    break;
            }
        }
    }

    private static string ReadSparseString(ReadOnlySpan<byte> row, byte code, ref int offset, string what, string field)
    {
        ExpectCode(code, HybridRowFormat.CodeUtf8, what, field);
        return DecodeUtf8(HybridRowFormat.ReadLengthPrefixed(row, ref offset, what), what);
    }

    private static void SkipValue(ReadOnlySpan<byte> row, byte code, ref int offset, string what)
    {
        switch (HybridRowFormat.PrimitiveValueSize(code))
        {
            case null:
                throw new BatchFormatException($"{what}: sparse field with type code {code}, which a batch operation never carries.");
            case -1:
                HybridRowFormat.ReadLengthPrefixed(row, ref offset, what);
                break;
            case -2:
                HybridRowFormat.ReadVarUInt(row, ref offset, what);
                break;
            case int size:
                Take(row, ref offset, size, what);
                break;
        }
    }

    private static ReadOnlySpan<byte> Take(ReadOnlySpan<byte> row, ref int offset, int size, string what)
    {
        if (size > row.Length - offset)
        {
            throw new BatchFormatException($"{what}: a sparse value runs past the end of the row.");
        }

        var value = row.Slice(offset, size);
        offset += size;
        return value;
    }

    private static void ExpectCode(byte code, byte expected, string what, string field)
    {
        if (code != expected)
        {
            throw new BatchFormatException($"{what}: {field} has type code {code}, expected {expected}.");
        }
    }

    private static string DecodeUtf8(ReadOnlySpan<byte> bytes, string what)
    {
        try
        {
            return Strict.GetString(bytes);
        }
        catch (DecoderFallbackException e)
        {
            throw new BatchFormatException($"{what}: a string field is not valid UTF-8.", e);
        }
    }

    private static readonly UTF8Encoding Strict = new(encoderShouldEmitUTF8Identifier: false, throwOnInvalidBytes: true);

    private struct SparseFields
    {
        public string? IndexingDirective;
        public string? IfMatch;
        public string? IfNoneMatch;
        public int? TimeToLive;
        public bool MinimalReturnPreference;
    }
}
