using System.Runtime.CompilerServices;

namespace SensorPipeline.Core.Wire;

/// <summary>
/// The one walk over a protobuf message's fields that every decoder in core shares. <see cref="MoveNext"/> reads the
/// next field's tag; the caller reads the value of a field it knows (by number and wire type) with the reader for that
/// wire type, and every other field — an unknown number, or a known number with another wire type — is passed over by
/// the next <see cref="MoveNext"/>, as proto3 readers must. The walk stops at the end of the message or at the first
/// malformed byte; <see cref="Malformed"/> tells the two apart. Values are read where they are used and the field's
/// number and wire type come back as locals, never stored in the walker: the hot path decodes every field of every
/// reading through it, and the walk must cost what a hand-written loop does (`./pipeline bench core`).
/// </summary>
public ref struct ProtoFields
{
    // What the walker still owes before the next tag: nothing, the current field's value (its wire type), or — after a
    // malformed byte — nothing ever again.
    private const int NothingPending = -1;
    private const int Failed = 8;

    private ProtoReader _reader;
    private int _pending;

    public ProtoFields(ReadOnlySpan<byte> message)
    {
        _reader = new ProtoReader(message);
        _pending = NothingPending;
    }

    /// <summary>True when the walk stopped at a byte that is not protobuf framing, rather than at the message's end.</summary>
    public readonly bool Malformed => _pending == Failed;

    /// <summary>Moves to the next field, passing over the current one's value if the caller did not read it; false at
    /// the end of the message, or when it is malformed (then <see cref="Malformed"/>).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool MoveNext(out int number, out WireType wireType)
    {
        if ((_pending != NothingPending && !SkipPending()) || _reader.End)
        {
            number = 0;
            wireType = default;
            return false;
        }

        if (!_reader.TryReadTag(out number, out wireType))
        {
            _pending = Failed;
            return false;
        }

        _pending = (int)wireType;
        return true;
    }

    /// <summary>The current varint field's value.</summary>
    public ulong ReadVarint() => Read(_reader.TryReadVarint(out var value), value);

    /// <summary>The current varint field read as a proto3 int32 or enum: a negative value is sign-extended to ten bytes
    /// on the wire, so truncation is the spec'd decoding.</summary>
    public int ReadInt32() => unchecked((int)ReadVarint());

    /// <summary>The current fixed64 field read as a double.</summary>
    public double ReadDouble() => BitConverter.UInt64BitsToDouble(Read(_reader.TryReadFixed64(out var bits), bits));

    /// <summary>The current length-delimited field's bytes (a slice of the message, not a copy).</summary>
    public ReadOnlySpan<byte> ReadBytes()
    {
        _pending = _reader.TryReadLengthDelimited(out var bytes) ? NothingPending : Failed;
        return bytes;
    }

    private ulong Read(bool ok, ulong value)
    {
        _pending = ok ? NothingPending : Failed;
        return value;
    }

    private bool SkipPending()
    {
        var ok = _pending switch
        {
            (int)WireType.Varint => _reader.TryReadVarint(out _),
            (int)WireType.Fixed64 => _reader.TryReadFixed64(out _),
            (int)WireType.LengthDelimited => _reader.TryReadLengthDelimited(out _),
            (int)WireType.Fixed32 => _reader.TrySkip(4),
            _ => false,
        };
        _pending = ok ? NothingPending : Failed;
        return ok;
    }
}
