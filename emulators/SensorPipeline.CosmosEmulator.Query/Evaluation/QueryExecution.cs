using System.Buffers;
using System.Text.Encodings.Web;
using SensorPipeline.CosmosEmulator.Query.Parsing;

namespace SensorPipeline.CosmosEmulator.Query.Evaluation;

/// <summary>One run of a query: a single pass over the documents, each parsed once with <see cref="JsonDocument"/>
/// and released before the next. Filters cost O(n); ORDER BY keeps only the sort keys and output of the rows that can
/// still make the page (a bounded heap when TOP or LIMIT bounds it), so O(n log k).</summary>
internal sealed class QueryExecution : IDisposable
{
    private readonly QueryModel _model;
    private readonly EvalContext _ctx;
    private readonly ArrayBufferWriter<byte> _buffer = new(1024);
    private readonly Utf8JsonWriter _writer;
    private readonly long _skip;
    private readonly long _take;
    private long _scanned;
    private long _scannedBytes;
    private long _matched;
    private long _matchedBytes;

    public QueryExecution(QueryModel model, IReadOnlyList<KeyValuePair<string, JsonElement>>? parameters)
    {
        _model = model;
        _ctx = new EvalContext(ParameterBinder.Bind(model.Parameters, parameters));
        _skip = model.Offset is null ? 0 : Count(model.Offset, "OFFSET");
        var take = long.MaxValue;
        if (model.Limit is not null)
        {
            take = Count(model.Limit, "LIMIT");
        }

        if (model.Top is not null)
        {
            take = Math.Min(take, Count(model.Top, "TOP"));
        }

        _take = take;
        _writer = new Utf8JsonWriter(_buffer, new JsonWriterOptions
        {
            SkipValidation = true,
            // JSON bodies, not HTML: write text as the service does, without escaping quotes or non-ASCII letters.
            Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping,
        });
    }

    public QueryResult Run(IEnumerable<ReadOnlyMemory<byte>> documents)
    {
        if (_model.Alias is null)
        {
            return Page(RowWithoutSource(), 0);
        }

        var result = _model.Aggregates.Count > 0 ? RunAggregate(Matching(documents))
            : _model.OrderBy.Count > 0 ? RunOrdered(Matching(documents)) : RunStreaming(Matching(documents));
        return result with { BytesScanned = _scannedBytes, DocumentsMatched = _matched, BytesMatched = _matchedBytes };
    }

    /// <summary>The documents the WHERE clause keeps, each parsed once and bound as the root while the caller looks at
    /// it (the parse is released when the caller moves on or stops). Every document read counts as scanned, in number
    /// and bytes (the basis of a query's charge), whether it matches or not, and only as far as the caller reads.</summary>
    private IEnumerable<ReadOnlyMemory<byte>> Matching(IEnumerable<ReadOnlyMemory<byte>> documents)
    {
        foreach (var document in documents)
        {
            _scanned++;
            _scannedBytes += document.Length;
            using var parsed = JsonDocument.Parse(document);
            _ctx.Root = QValue.FromElement(parsed.RootElement);
            if (Matches(document.Length))
            {
                yield return document;
            }
        }
    }

    public void Dispose() => _writer.Dispose();

    private QueryResult RunStreaming(IEnumerable<ReadOnlyMemory<byte>> documents)
    {
        var items = new List<byte[]>();
        long skipped = 0;
        if (_take == 0)
        {
            return new QueryResult(items, 0);
        }

        foreach (var document in documents)
        {
            if (Project(document) is not { } item)
            {
                continue;
            }

            if (skipped < _skip)
            {
                skipped++;
                continue;
            }

            items.Add(item);
            if (items.Count >= _take)
            {
                break; // TOP/LIMIT satisfied: the rest need not be read
            }
        }

        return new QueryResult(items, _scanned);
    }

    private QueryResult RunOrdered(IEnumerable<ReadOnlyMemory<byte>> documents)
    {
        if (_take == 0)
        {
            return new QueryResult([], 0);
        }

        var comparer = new RowComparer(_model.OrderBy);
        var bound = _take > long.MaxValue - _skip ? long.MaxValue : _skip + _take; // saturating: OFFSET and LIMIT may be huge
        var heap = new PriorityQueue<OrderedRow, OrderedRow>(Comparer<OrderedRow>.Create((a, b) => comparer.Compare(b, a)));
        var all = new List<OrderedRow>();
        long sequence = 0;
        var keys = new SortKey[_model.OrderBy.Count];
        foreach (var document in documents)
        {
            for (var i = 0; i < keys.Length; i++)
            {
                keys[i] = SortKey.From(_model.OrderBy[i].Path.Eval(_ctx));
            }

            if (bound != long.MaxValue && heap.Count >= bound && comparer.Compare(keys, sequence, heap.Peek()) >= 0)
            {
                sequence++;
                continue; // cannot make the page: neither projected nor kept
            }

            if (Project(document) is not { } item)
            {
                continue;
            }

            var row = new OrderedRow(keys, sequence++, item);
            keys = new SortKey[keys.Length];
            if (bound == long.MaxValue)
            {
                all.Add(row);
            }
            else if (heap.Count < bound)
            {
                heap.Enqueue(row, row);
            }
            else
            {
                heap.DequeueEnqueue(row, row);
            }
        }

        if (bound != long.MaxValue)
        {
            while (heap.Count > 0)
            {
                all.Add(heap.Dequeue());
            }
        }

        all.Sort(comparer);
        return Page(all.Select(r => r.Item), _scanned);
    }

    private QueryResult RunAggregate(IEnumerable<ReadOnlyMemory<byte>> documents)
    {
        var accumulators = _model.Aggregates.Select(a => a.CreateAccumulator()).ToArray();
        foreach (var _ in documents)
        {
            for (var i = 0; i < accumulators.Length; i++)
            {
                accumulators[i].Add(_model.Aggregates[i].Argument.Eval(_ctx));
            }
        }

        _ctx.Root = QValue.Undefined;
        _ctx.AggregateResults = accumulators.Select(a => a.Result()).ToArray();
        var row = Project(ReadOnlyMemory<byte>.Empty);
        return Page(row is null ? [] : [row], _scanned);
    }

    private IEnumerable<byte[]> RowWithoutSource()
    {
        _ctx.Root = QValue.Undefined;
        if (Matches(0) && Project(ReadOnlyMemory<byte>.Empty) is { } row)
        {
            yield return row;
        }
    }

    private QueryResult Page(IEnumerable<byte[]> rows, long scanned)
    {
        var page = rows.Skip((int)Math.Min(_skip, int.MaxValue)).Take((int)Math.Min(_take, int.MaxValue)).ToList();
        return new QueryResult(page, scanned);
    }

    /// <summary>Whether the bound root passes the WHERE clause; a match of <paramref name="bytes"/> is counted.</summary>
    private bool Matches(int bytes)
    {
        if (_model.Where is not null && _model.Where.Eval(_ctx) is not { Kind: QKind.Boolean, Boolean: true })
        {
            return false;
        }

        _matched++;
        _matchedBytes += bytes;
        return true;
    }

    /// <summary>The output of the current row as UTF-8 JSON, or null when the row yields nothing
    /// (SELECT VALUE of undefined).</summary>
    private byte[]? Project(ReadOnlyMemory<byte> document)
    {
        if (_model.SelectStar)
        {
            return document.ToArray();
        }

        _buffer.ResetWrittenCount();
        _writer.Reset();
        if (_model.ValueExpr is { } valueExpr)
        {
            var value = valueExpr.Eval(_ctx);
            if (value.IsUndefined)
            {
                return null;
            }

            value.WriteTo(_writer);
        }
        else
        {
            _writer.WriteStartObject();
            foreach (var projection in _model.Projections)
            {
                var value = projection.Expr.Eval(_ctx);
                if (!value.IsUndefined)
                {
                    _writer.WritePropertyName(projection.Name);
                    value.WriteTo(_writer);
                }
            }

            _writer.WriteEndObject();
        }

        _writer.Flush();
        return _buffer.WrittenSpan.ToArray();
    }

    private long Count(Expr expr, string clause)
    {
        var value = expr.Eval(_ctx);
        if (value.Kind != QKind.Number || value.Number < 0 || value.Number != Math.Floor(value.Number))
        {
            throw new SqlQueryException($"{clause} needs a non-negative integer; the query gives it {Describe(value)}.");
        }

        return value.Number >= long.MaxValue ? long.MaxValue : (long)value.Number;
    }

    private static string Describe(QValue value) => value.Kind switch
    {
        QKind.Undefined => "no value",
        QKind.Number => value.Number.ToString(System.Globalization.CultureInfo.InvariantCulture),
        _ => $"a value of type {value.Kind.ToString().ToLowerInvariant()}",
    };

    private sealed record OrderedRow(SortKey[] Keys, long Sequence, byte[] Item);

    /// <summary>Orders rows by their ORDER BY keys, ties in document order (stable, as a single partition returns them).</summary>
    private sealed class RowComparer(IReadOnlyList<OrderByItem> orderBy) : IComparer<OrderedRow>
    {
        public int Compare(OrderedRow? x, OrderedRow? y) => Compare(x!.Keys, x.Sequence, y!);

        public int Compare(SortKey[] keys, long sequence, OrderedRow y)
        {
            for (var i = 0; i < orderBy.Count; i++)
            {
                var order = keys[i].CompareTo(y.Keys[i]);
                if (order != 0)
                {
                    return orderBy[i].Descending ? -order : order;
                }
            }

            return sequence.CompareTo(y.Sequence);
        }
    }
}
