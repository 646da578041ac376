using System.Net.Http.Headers;
using System.Text;
using System.Text.Json;

namespace SensorPipeline.EventHubs.Tests;

/// <summary>One devhost process with the repository's eventhubs.emulator.json, shared by a test class.</summary>
public sealed class DevHostFixture : IAsyncLifetime, IDisposable
{
    private readonly TempDirectory _dir = new();
    private RunningDevHost? _devHost;

    internal RunningDevHost DevHost => _devHost ?? throw new InvalidOperationException("not started");

    public string DataDirectory => Path.Combine(_dir.Path, "data");

    public async Task InitializeAsync()
    {
        var appRoot = Directory.CreateDirectory(Path.Combine(_dir.Path, "app")).FullName;
        _devHost = await RunningDevHost.StartAsync(appRoot, DataDirectory, RepoLayout.Current.EventHubsConfig);
    }

    public async Task DisposeAsync()
    {
        if (_devHost is not null)
        {
            await _devHost.DisposeAsync();
        }

        _dir.Dispose();
    }

    public void Dispose() => _dir.Dispose();
}

internal static class Http
{
    public const string BatchType = "application/vnd.microsoft.servicebus.json";

    public static HttpRequestMessage Post(string path, HttpContent content, string? authorization = null)
    {
        var request = new HttpRequestMessage(HttpMethod.Post, path) { Content = content };
        request.Headers.TryAddWithoutValidation("Authorization", authorization ?? Sas.Namespace);
        return request;
    }

    public static ByteArrayContent Raw(byte[] body) => new(body);

    public static StringContent Batch(string json) => new(json, Encoding.UTF8, BatchType);

    /// <summary>A batch body from raw byte pieces (to send bytes that are not valid UTF-8).</summary>
    public static ByteArrayContent BatchBytes(ReadOnlySpan<byte> head, ReadOnlySpan<byte> middle, ReadOnlySpan<byte> tail)
    {
        var content = new ByteArrayContent([.. head, .. middle, .. tail]);
        content.Headers.ContentType = new MediaTypeHeaderValue(BatchType);
        return content;
    }

    public static async Task<JsonElement> GetJsonAsync(HttpClient client, string path)
    {
        using var response = await client.GetAsync(path);
        response.EnsureSuccessStatusCode();
        using var document = JsonDocument.Parse(await response.Content.ReadAsStringAsync());
        return document.RootElement.Clone();
    }

    /// <summary>Every stored event of a partition, paging through the peek endpoint.</summary>
    public static async Task<List<JsonElement>> AllEventsAsync(HttpClient client, string hub, string partition)
    {
        var all = new List<JsonElement>();
        while (true)
        {
            var page = await GetJsonAsync(client, $"/{hub}/partitions/{partition}/events?from={all.Count}&max=1000");
            if (page.GetArrayLength() == 0)
            {
                return all;
            }

            all.AddRange(page.EnumerateArray());
        }
    }

    /// <summary>Every partition's last sequence number, to prove a rejected request changed nothing.</summary>
    public static async Task<string> SnapshotAsync(HttpClient client)
    {
        var status = await GetJsonAsync(client, "/status");
        return string.Join(",", status.GetProperty("hubs").EnumerateArray()
            .SelectMany(h => h.GetProperty("partitions").EnumerateArray().Select(p => $"{h.GetProperty("name")}/{p.GetProperty("id")}={p.GetProperty("lastSequenceNumber")}:{p.GetProperty("bytes")}")));
    }

    public static string Header(HttpResponseMessage response, string name) => response.Headers.GetValues(name).Single();

    public static MediaTypeHeaderValue JsonType => new("application/json");
}
