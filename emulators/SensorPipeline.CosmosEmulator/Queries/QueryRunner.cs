using System.Collections.Concurrent;
using System.Globalization;
using SensorPipeline.CosmosEmulator.Query;
using SensorPipeline.CosmosEmulator.Documents;

namespace SensorPipeline.CosmosEmulator.Queries;

/// <summary>
/// Runs queries with the query engine and pages their results. A query is executed once; its result is kept for a
/// minute under an id the continuation token carries (<c>-RID:~{id}#TRC:{offset}</c>), so later pages cost nothing
/// and stay consistent. A token whose result has been dropped re-executes the query and skips to its offset.
/// </summary>
internal sealed class QueryRunner(TimeProvider time)
{
    private const int MaxCachedResults = 256;
    private const int MaxCachedQueries = 1024;
    private static readonly TimeSpan ResultLifetime = TimeSpan.FromMinutes(1);

    private readonly ConcurrentDictionary<string, SqlQuery> _parsed = new(StringComparer.Ordinal);
    private readonly ConcurrentDictionary<string, CachedResult> _results = new(StringComparer.Ordinal);

    /// <summary>A parsed query request body <c>{"query":…,"parameters":[{"name":…,"value":…}]}</c>.</summary>
    public sealed class Request(JsonDocument body, SqlQuery query, List<KeyValuePair<string, JsonElement>> parameters) : IDisposable
    {
        public SqlQuery Query { get; } = query;

        public IReadOnlyList<KeyValuePair<string, JsonElement>> Parameters { get; } = parameters;

        public string Text => Query.Text;

        public void Dispose() => body.Dispose();
    }

    /// <summary>Parses the body; a syntax error or an unsupported construct is a 400 with the engine's message.</summary>
    public Request Parse(ReadOnlyMemory<byte> body)
    {
        if (!System.Text.Unicode.Utf8.IsValid(body.Span))
        {
            throw new StoreException(400, "BadRequest", "The query body is not valid UTF-8.");
        }

        var document = JsonDocument.Parse(body);
        try
        {
            var root = document.RootElement;
            if (root.ValueKind != JsonValueKind.Object || !root.TryGetProperty("query", out var text) || text.ValueKind != JsonValueKind.String)
            {
                throw new StoreException(400, "BadRequest", "A query body is {\"query\": \"SELECT …\", \"parameters\": [{\"name\": \"@p\", \"value\": …}]}.");
            }

            var parameters = new List<KeyValuePair<string, JsonElement>>();
            if (root.TryGetProperty("parameters", out var list) && list.ValueKind == JsonValueKind.Array)
            {
                foreach (var parameter in list.EnumerateArray())
                {
                    if (parameter.TryGetProperty("name", out var name) && name.ValueKind == JsonValueKind.String)
                    {
                        parameters.Add(new(name.GetString()!, parameter.TryGetProperty("value", out var value) ? value : default));
                    }
                }
            }

            return new Request(document, ParseQuery(text.GetString()!), parameters);
        }
        catch (InvalidOperationException e)
        {
            // GetString checks escaped surrogates only when a string is read (found by fuzzing).
            document.Dispose();
            throw new StoreException(400, "BadRequest", "The query body holds a string that is not valid UTF-16: " + e.Message);
        }
        catch
        {
            document.Dispose();
            throw;
        }
    }

    /// <summary>The filter predicate of a conditional patch (<c>FROM c WHERE …</c>) as a test of a stored document.</summary>
    public static Func<ReadOnlyMemory<byte>, bool> Predicate(string condition)
    {
        SqlPredicate predicate;
        try
        {
            predicate = SqlQuery.ParsePredicate(condition);
        }
        catch (SqlQueryException e)
        {
            throw new StoreException(400, "BadRequest", e.Message);
        }

        return document => predicate.Matches(document, []);
    }

    /// <summary>One page of the query's result over <paramref name="documents"/>, resuming at <paramref name="continuation"/>.</summary>
    public Page Execute(Request request, Func<IReadOnlyList<ReadOnlyMemory<byte>>> documents, string? continuation, int pageSize, long maxPageBytes)
    {
        ArgumentNullException.ThrowIfNull(request);
        ArgumentNullException.ThrowIfNull(documents);
        var now = time.GetUtcNow();
        var (id, offset) = ParseContinuation(continuation);
        QueryResult? executed = null;
        if (id is null || !_results.TryGetValue(id, out var cached))
        {
            QueryResult result;
            try
            {
                result = request.Query.Execute(documents(), request.Parameters);
            }
            catch (SqlQueryException e)
            {
                throw new StoreException(400, "BadRequest", e.Message);
            }

            executed = result;
            cached = new CachedResult(result.Items, now + ResultLifetime);
            id ??= Guid.NewGuid().ToString("N");
            if (result.Items.Count > pageSize)
            {
                Evict(now);
                _results[id] = cached;
            }
        }

        var items = new List<byte[]>(Math.Min(pageSize, Math.Max(0, cached.Items.Count - offset)));
        long bytes = 0;
        var at = offset;
        while (at < cached.Items.Count && items.Count < pageSize && (items.Count == 0 || bytes + cached.Items[at].Length <= maxPageBytes))
        {
            bytes += cached.Items[at].Length;
            items.Add(cached.Items[at++]);
        }

        string? next = null;
        if (at < cached.Items.Count)
        {
            next = string.Create(CultureInfo.InvariantCulture, $"-RID:~{id}#TRC:{at}");
        }
        else
        {
            _results.TryRemove(id, out _);
        }

        return new Page(items, bytes, next) { Executed = executed };
    }

    private SqlQuery ParseQuery(string text)
    {
        if (_parsed.TryGetValue(text, out var query))
        {
            return query;
        }

        try
        {
            query = SqlQuery.Parse(text);
        }
        catch (SqlQueryException e)
        {
            throw new StoreException(400, "BadRequest", e.Message);
        }

        if (_parsed.Count >= MaxCachedQueries)
        {
            _parsed.Clear();
        }

        _parsed[text] = query;
        return query;
    }

    private void Evict(DateTimeOffset now)
    {
        foreach (var (key, value) in _results)
        {
            if (value.Expires <= now || _results.Count > MaxCachedResults)
            {
                _results.TryRemove(key, out _);
            }
        }
    }

    private static (string? Id, int Offset) ParseContinuation(string? token)
    {
        if (string.IsNullOrEmpty(token))
        {
            return (null, 0);
        }

        // The SDKs may pass the token back wrapped in JSON quotes.
        token = token.Trim('"');
        var hash = token.IndexOf("#TRC:", StringComparison.Ordinal);
        if (!token.StartsWith("-RID:~", StringComparison.Ordinal) || hash < 0
            || !int.TryParse(token.AsSpan(hash + 5), NumberStyles.None, CultureInfo.InvariantCulture, out var offset))
        {
            throw new StoreException(400, "BadRequest", $"The continuation token '{token}' was not issued by this emulator.");
        }

        return (token[6..hash], offset);
    }

    /// <summary>One page: its items, their bytes and the continuation token (null on the last page); the run that
    /// computed the whole result when this page did (null when the page was served from the cache).</summary>
    public sealed record Page(IReadOnlyList<byte[]> Items, long Bytes, string? Continuation)
    {
        public QueryResult? Executed { get; init; }
    }

    private sealed record CachedResult(IReadOnlyList<byte[]> Items, DateTimeOffset Expires);
}
