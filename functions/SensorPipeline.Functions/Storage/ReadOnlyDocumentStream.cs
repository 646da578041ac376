using System.Runtime.InteropServices;

namespace SensorPipeline.Functions.Storage;

/// <summary>A read-only stream over pre-serialized bytes in a pooled buffer: the SDK sends them as they are, no copy.</summary>
internal static class ReadOnlyDocumentStream
{
    public static MemoryStream Create(ReadOnlyMemory<byte> document) =>
        MemoryMarshal.TryGetArray(document, out var segment) && segment.Array is { } array
            ? new MemoryStream(array, segment.Offset, segment.Count, writable: false)
            : new MemoryStream(document.ToArray(), writable: false);
}
