using System.Text.Json;
using SensorPipeline.Core.Readings;
using SensorPipeline.Core.Splitting;

namespace SensorPipeline.Functions.Invocation;

/// <summary>
/// The custom-handler request parsed as it arrives: <see cref="Advance"/> takes whatever bytes have been read, consumes
/// every complete piece and says how many bytes it used; the caller keeps the rest and reads more. Small values
/// (partition context, sequence numbers, enqueued times, retry context) are read whole; the trigger's data, a JSON
/// string that holds the whole batch, is unescaped piece by piece into a <see cref="TriggerArrayReader"/>, and other
/// string values (the properties arrays can be as large as the events) are skipped without being held. This class is the
/// state machine over the request's JSON; the metadata it keeps is a <see cref="RequestMetadata"/>, the string being
/// streamed a <see cref="StreamedString"/>.
/// </summary>
internal sealed class RequestStreamParser(string triggerName) : IDisposable
{
    private enum Piece
    {
        Complete,
        Incomplete,
        StreamString,
    }

    private enum Context
    {
        Start,
        Root,
        Data,
        Metadata,
        TriggerArray,
        Done,
    }

    private readonly string _triggerPath = "Data." + triggerName;
    private readonly DecodedEvents _events = new("Data." + triggerName);
    private JsonReaderState _state;
    private Context _context;
    private bool _sawTrigger;
    private RequestMetadata _metadata;
    private StreamedString _string;
    private bool _dropping;

    public bool IsDone => _context == Context.Done;

    /// <summary>True once <see cref="DropEvents"/> ran: the request is over the handler's budget.</summary>
    public bool DroppedEvents => _dropping;

    /// <summary>
    /// The body passed the handler's budget: the events read so far are released and the rest are not kept, while the
    /// metadata — after the events in the host's body — is still read, so a refused request still tells its partition
    /// and its events' enqueued times (its age, for the stall alarm).
    /// </summary>
    public void DropEvents()
    {
        if (_dropping)
        {
            return;
        }

        _dropping = true;
        _events.Dispose();
        _string.SkipTrigger();
    }

    /// <summary>Consumes what it can of <paramref name="window"/> (the unread bytes so far) and returns how many bytes it used.</summary>
    /// <param name="window">The bytes read and not yet consumed.</param>
    /// <param name="isFinalBlock">True when the body has ended: nothing more will follow.</param>
    public int Advance(ReadOnlySpan<byte> window, bool isFinalBlock)
    {
        var position = 0;
        while (_context != Context.Done)
        {
            if (_string.IsActive)
            {
                position += _string.Scan(window[position..], out var closed);
                if (!closed)
                {
                    break;
                }

                ResumeAfterString();
                continue;
            }

            position += ReadTokens(window[position..], isFinalBlock, out var enteredString);
            if (!enteredString)
            {
                break;
            }
        }

        return position;
    }

    /// <summary>The parsed request; the event buffers pass to it. Only once <see cref="IsDone"/>.</summary>
    /// <param name="refusal">Set when the events were dropped: the request then carries its events' positions, empty.</param>
    public InvocationRequest Build(RequestTooLargeException? refusal = null)
    {
        if (!_sawTrigger)
        {
            throw new InvalidInvocationException($"{_triggerPath} is missing: the trigger binding in function.json must be named \"{triggerName}\".");
        }

        var partition = _metadata.PartitionId;
        var sequenceNumbers = _metadata.SequenceNumbers();
        var enqueuedTimes = _metadata.EnqueuedTimes();
        if (_dropping)
        {
            var positions = new InputEvent[Math.Min(sequenceNumbers.Length, enqueuedTimes.Length)];
            for (var i = 0; i < positions.Length; i++)
            {
                positions[i] = new InputEvent(ReadOnlyMemory<byte>.Empty, new SourcePosition(partition, sequenceNumbers[i], enqueuedTimes[i]));
            }

            return new InvocationRequest(null, positions, partition, _metadata.RetryCount) { Refusal = refusal ?? new RequestTooLargeException(0, 0, 0) };
        }

        var count = _events.Count;
        if (count > sequenceNumbers.Length || count > enqueuedTimes.Length)
        {
            throw new InvalidInvocationException($"{_triggerPath} has more events than Metadata.SequenceNumberArray ({sequenceNumbers.Length}) or EnqueuedTimeUtcArray ({enqueuedTimes.Length}).");
        }

        if (count != sequenceNumbers.Length || count != enqueuedTimes.Length)
        {
            throw new InvalidInvocationException($"{_triggerPath} has {count} events but Metadata.SequenceNumberArray has {sequenceNumbers.Length} and EnqueuedTimeUtcArray {enqueuedTimes.Length}.");
        }

        var events = new InputEvent[count];
        for (var i = 0; i < count; i++)
        {
            events[i] = new InputEvent(_events.Bodies[i], new SourcePosition(partition, sequenceNumbers[i], enqueuedTimes[i]));
        }

        return new InvocationRequest(_events.Release(), events, partition, _metadata.RetryCount);
    }

    public void Dispose()
    {
        _events.Dispose();
        _string.Dispose();
        _metadata.Dispose();
    }

    /// <summary>
    /// The token reader stopped after the property name of the string just streamed; show it a stand-in value so its
    /// state moves past the value (the state records nesting and the last token kind, not the value's bytes).
    /// </summary>
    private void ResumeAfterString()
    {
        var resume = new Utf8JsonReader("\"\""u8, isFinalBlock: false, _state);
        resume.Read();
        _state = resume.CurrentState;
    }

    /// <summary>
    /// Reads tokens piece by piece. Returns the bytes of the whole pieces read; a piece cut off by the window's end is
    /// rolled back, to be read again with more bytes. <paramref name="enteredString"/>: stopped after a property name
    /// whose string value is to be streamed.
    /// </summary>
    private int ReadTokens(ReadOnlySpan<byte> window, bool isFinalBlock, out bool enteredString)
    {
        enteredString = false;
        var reader = new Utf8JsonReader(window, isFinalBlock, _state);
        var committed = 0;
        var committedState = _state;
        while (_context != Context.Done && reader.Read())
        {
            var piece = _context switch
            {
                Context.Start => Open(ref reader),
                Context.TriggerArray => ReadElement(ref reader),
                _ => ReadProperty(ref reader, window),
            };
            if (piece == Piece.Incomplete)
            {
                break;
            }

            committed = (int)reader.BytesConsumed;
            committedState = reader.CurrentState;
            if (piece == Piece.StreamString)
            {
                enteredString = true;
                break;
            }
        }

        _state = committedState;
        return committed;
    }

    private Piece Open(ref Utf8JsonReader reader)
    {
        Expect(ref reader, JsonTokenType.StartObject, "the request body");
        _context = Context.Root;
        return Piece.Complete;
    }

    private Piece ReadElement(ref Utf8JsonReader reader)
    {
        if (reader.TokenType == JsonTokenType.EndArray)
        {
            _context = Context.Data;
        }
        else if (!_dropping)
        {
            _events.Add(ref reader);
        }
        else if (reader.TokenType != JsonTokenType.String)
        {
            throw new InvalidInvocationException($"{_triggerPath} holds a {reader.TokenType}, expected base64 strings.");
        }

        return Piece.Complete;
    }

    /// <summary>One property of the root, Data or Metadata object (or that object's end). Changes nothing unless complete.</summary>
    private Piece ReadProperty(ref Utf8JsonReader reader, ReadOnlySpan<byte> window)
    {
        if (reader.TokenType == JsonTokenType.EndObject)
        {
            _context = _context == Context.Root ? Context.Done : Context.Root;
            return Piece.Complete;
        }

        switch (_context)
        {
            case Context.Root when reader.ValueTextEquals("Data"u8) || reader.ValueTextEquals("Metadata"u8):
            {
                var isData = reader.ValueTextEquals("Data"u8);
                if (!reader.Read())
                {
                    return Piece.Incomplete;
                }

                Expect(ref reader, JsonTokenType.StartObject, isData ? "Data" : "Metadata");
                _context = isData ? Context.Data : Context.Metadata;
                return Piece.Complete;
            }

            case Context.Data when reader.ValueTextEquals(triggerName):
                return ReadTrigger(ref reader, window);

            case Context.Metadata when RequestMetadata.IsRead(ref reader):
                return _metadata.TryRead(ref reader, window) ? Piece.Complete : Piece.Incomplete;

            default:
                return SkipValue(ref reader, window);
        }
    }

    private Piece ReadTrigger(ref Utf8JsonReader reader, ReadOnlySpan<byte> window)
    {
        if (_sawTrigger)
        {
            throw new InvalidInvocationException($"{_triggerPath} appears more than once.");
        }

        var first = JsonBytes.PeekValue(window, reader.BytesConsumed);
        if (first == '"')
        {
            _sawTrigger = true;
            if (_dropping)
            {
                _string.BeginSkip();
            }
            else
            {
                _string.BeginTrigger(new TriggerArrayReader(_events, _triggerPath), _triggerPath);
            }

            return Piece.StreamString;
        }

        if (first < 0 || !reader.Read())
        {
            return Piece.Incomplete;
        }

        if (reader.TokenType != JsonTokenType.StartArray)
        {
            throw new InvalidInvocationException($"{_triggerPath} is {reader.TokenType}, expected a JSON string holding JSON text or an array.");
        }

        _sawTrigger = true;
        _context = Context.TriggerArray;
        return Piece.Complete;
    }

    /// <summary>A value nobody reads: a string is streamed past (it may be as large as the events), anything else skipped once whole.</summary>
    private Piece SkipValue(ref Utf8JsonReader reader, ReadOnlySpan<byte> window)
    {
        var first = JsonBytes.PeekValue(window, reader.BytesConsumed);
        if (first == '"')
        {
            _string.BeginSkip();
            return Piece.StreamString;
        }

        return first >= 0 && reader.TrySkip() ? Piece.Complete : Piece.Incomplete;
    }

    private static void Expect(ref Utf8JsonReader reader, JsonTokenType type, string what)
    {
        if (reader.TokenType != type)
        {
            throw new InvalidInvocationException($"{what} is {reader.TokenType}, expected {type}.");
        }
    }
}
