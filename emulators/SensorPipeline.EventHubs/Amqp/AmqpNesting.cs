using System.Buffers;
using System.Buffers.Binary;
using Microsoft.Azure.Amqp;

namespace SensorPipeline.EventHubs.Amqp;

/// <summary>Measures AMQP-encoded bytes without decoding them, iteratively, so that a value nested deeper than a bound
/// is refused before Microsoft.Azure.Amqp's decoder (which recurses once per level and would overflow the stack at
/// some 100,000 levels, ending the process) ever sees it. It walks values in the order the decoder reads them and
/// also refuses what would let the two disagree on where a value ends: a list, map or array whose size does not match
/// its items (the decoder skips a described list's extra fields by size), a count larger than its size (the decoder
/// allocates by count), an array of compound elements, an unknown format code, or bytes running past the end.</summary>
internal static class AmqpNesting
{
    /// <summary>Why a received message may not be decoded, or null: its bytes as they came in its transfers (reading
    /// any section would decode them all).</summary>
    public static string? CheckReceived(AmqpMessage message, int maxDepth)
    {
        var buffers = message.RawByteBuffers;
        if (buffers is null or { Count: 0 })
        {
            return null;
        }

        if (buffers.Count == 1)
        {
            return CheckSections(buffers[0].Buffer.AsSpan(buffers[0].Offset, buffers[0].Length), maxDepth);
        }

        // A message of several transfers: joined once (it is at most the link's max-message-size).
        var length = buffers.Sum(b => b.Length);
        var joined = ArrayPool<byte>.Shared.Rent(length);
        try
        {
            var at = 0;
            foreach (var b in buffers)
            {
                b.Buffer.AsSpan(b.Offset, b.Length).CopyTo(joined.AsSpan(at));
                at += b.Length;
            }

            return CheckSections(joined.AsSpan(0, length), maxDepth);
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(joined);
        }
    }

    /// <summary>Why <paramref name="bytes"/> (a message's sections, one after another) may not be decoded, or null.</summary>
    public static string? CheckSections(ReadOnlySpan<byte> bytes, int maxDepth)
    {
        // One entry per open container: items still to read, and where its size says it ends (-1: a described value,
        // which has no size of its own).
        var open = new Stack<(long Items, int End)>();
        var at = 0;
        while (at < bytes.Length)
        {
            var code = bytes[at++];
            string? problem;
            if (code == 0x00)
            {
                problem = Push(open, 2, -1, maxDepth);
            }
            else if (code is 0xC0 or 0xC1 or 0xD0 or 0xD1)
            {
                problem = OpenCompound(bytes, ref at, code, open, maxDepth);
            }
            else
            {
                problem = code is 0xE0 or 0xF0 ? SkipArray(bytes, ref at, code, open.Count + 1, maxDepth) : Skip(bytes, ref at, code);
                problem ??= Close(open, bytes.Length, ref at);
            }

            if (problem is not null)
            {
                return problem;
            }
        }

        return open.Count == 0 ? null : "The encoding ends inside a value.";
    }

    private static string? Push(Stack<(long Items, int End)> open, long items, int end, int maxDepth)
    {
        if (open.Count + 1 > maxDepth)
        {
            return $"Values nest deeper than {maxDepth} levels (EventHubs:Amqp:MaxNestingDepth).";
        }

        open.Push((items, end));
        return null;
    }

    /// <summary>One value just ended: counts it against its container, and ends every container it completes.</summary>
    private static string? Close(Stack<(long Items, int End)> open, int length, ref int at)
    {
        while (open.Count > 0)
        {
            var (items, end) = open.Pop();
            if (--items > 0)
            {
                open.Push((items, end));
                return null;
            }

            if (end >= 0 && end != at)
            {
                return $"A list or map's size says it ends at byte {end}, its items end at byte {at}.";
            }
        }

        return at <= length ? null : "The encoding runs past its end.";
    }

    private static string? OpenCompound(ReadOnlySpan<byte> bytes, ref int at, byte code, Stack<(long Items, int End)> open, int maxDepth)
    {
        var wide = code >= 0xD0;
        if (!TryReadSizeAndCount(bytes, ref at, wide, out var end, out var count))
        {
            return "A list or map's size or count runs past the end, or its count exceeds its size.";
        }

        if (count == 0)
        {
            var atEnd = at;
            return atEnd != end ? $"An empty list or map's size says it ends at byte {end}, not {atEnd}." : Close(open, bytes.Length, ref at);
        }

        return Push(open, count, end, maxDepth);
    }

    /// <summary>Reads a compound's size and count; <paramref name="end"/> is where its size says it ends.</summary>
    private static bool TryReadSizeAndCount(ReadOnlySpan<byte> bytes, ref int at, bool wide, out int end, out long count)
    {
        var width = wide ? 4 : 1;
        end = 0;
        count = 0;
        if (at + (2 * width) > bytes.Length)
        {
            return false;
        }

        long size = wide ? BinaryPrimitives.ReadUInt32BigEndian(bytes[at..]) : bytes[at];
        count = wide ? BinaryPrimitives.ReadUInt32BigEndian(bytes[(at + 4)..]) : bytes[at + 1];
        var sizeEnd = at + width;
        if (size < width || size > bytes.Length - sizeEnd || count > size)
        {
            return false;
        }

        end = (int)(sizeEnd + size);
        at += 2 * width;
        return true;
    }

    /// <summary>An array: its element constructor (primitive, or described by a primitive) and its elements, which
    /// must fill its size exactly.</summary>
    private static string? SkipArray(ReadOnlySpan<byte> bytes, ref int at, byte code, int depth, int maxDepth)
    {
        if (!TryReadSizeAndCount(bytes, ref at, code == 0xF0, out var end, out var count) || at >= bytes.Length)
        {
            return "An array's size or count runs past the end, or its count exceeds its size.";
        }

        var element = bytes[at++];
        if (element == 0x00)
        {
            if (depth + 1 > maxDepth)
            {
                return $"Values nest deeper than {maxDepth} levels (EventHubs:Amqp:MaxNestingDepth).";
            }

            var descriptor = at < bytes.Length ? bytes[at++] : (byte)0x00;
            if (IsCompound(descriptor) || Skip(bytes, ref at, descriptor) is not null || at >= bytes.Length)
            {
                return "An array of described values needs a primitive descriptor and element type.";
            }

            element = bytes[at++];
        }

        if (IsCompound(element) || element is >= 0x40 and <= 0x45)
        {
            // Compound elements would need the walk above per element; elements of no width (null, true, uint0, …)
            // are read differently by decoders. No client sends either.
            return $"Arrays of element format code 0x{element:X2} are not accepted.";
        }

        for (long i = 0; i < count; i++)
        {
            if (SkipBody(bytes, ref at, element) is { } problem)
            {
                return problem;
            }
        }

        return at == end ? null : $"An array's size says it ends at byte {end}, its elements end at byte {at}.";
    }

    private static bool IsCompound(byte code) => code is 0x00 or 0xC0 or 0xC1 or 0xD0 or 0xD1 or 0xE0 or 0xF0;

    /// <summary>A primitive value whose constructor was just read.</summary>
    private static string? Skip(ReadOnlySpan<byte> bytes, ref int at, byte code) =>
        code == 0x45 ? null : SkipBody(bytes, ref at, code);

    /// <summary>The bytes of a primitive after its constructor (in an array, each element is just this).</summary>
    private static string? SkipBody(ReadOnlySpan<byte> bytes, ref int at, byte code)
    {
        var length = (code >> 4) switch
        {
            0x4 when code <= 0x45 => 0L,
            0x5 when code <= 0x56 => 1,
            0x6 when code <= 0x61 => 2,
            0x7 when code <= 0x74 => 4,
            0x8 when code <= 0x84 => 8,
            0x9 when code is 0x94 or 0x98 => 16,
            0xA when code is 0xA0 or 0xA1 or 0xA3 => at < bytes.Length ? 1 + bytes[at] : long.MaxValue,
            0xB when code is 0xB0 or 0xB1 or 0xB3 => at + 4 <= bytes.Length ? 4L + BinaryPrimitives.ReadUInt32BigEndian(bytes[at..]) : long.MaxValue,
            _ => -1,
        };
        if (length < 0)
        {
            return $"Unknown format code 0x{code:X2} at byte {at - 1}.";
        }

        if (length > bytes.Length - at)
        {
            return "A value runs past the end of the encoding.";
        }

        at += (int)length;
        return null;
    }
}
