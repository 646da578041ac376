using System.Diagnostics;
using System.Net.Http.Json;
using System.Text;
using System.Text.Json.Nodes;

namespace SensorPipeline.FunctionsHost.Tests;

/// <summary>A function app in a temporary folder (host.json, eventhubs.emulator.json, functions/*/function.json,
/// local.settings.json) with the recording Node.js handler, run by the real devhost program on a free port, with a
/// storage account of its own on the assembly's one azurite (<see cref="SharedAzurite"/>) as <c>AzureWebJobsStorage</c>
/// (rented at the first start, kept across restarts): each app's ownership and checkpoint blobs are its own.</summary>
public sealed class TestApp : IAsyncDisposable
{
    private static readonly string HandlerScript = Path.Combine(AppContext.BaseDirectory, "TestHandler", "recording-handler.js");

    private ChildProcess? _process;
    private string? _storage;
    private string _earlierOutput = "";
    private Dictionary<string, string> _extraValues = [];

    public TestApp(string? hostJsonExtensions = null, string? retry = null, string functionTimeout = "00:01:00")
    {
        Root = Path.Combine(Path.GetTempPath(), "fh-tests-" + Guid.NewGuid().ToString("N")[..12]);
        Data = Path.Combine(Root, ".data");
        Directory.CreateDirectory(Root);
        RecordFile = Path.Combine(Root, "records.jsonl");
        ScriptFile = Path.Combine(Root, "script.json");
        File.WriteAllText(RecordFile, "");
        SetScript("""{"*": {"mode": "ok"}}""");
        var host = new JsonObject
        {
            ["version"] = "2.0",
            ["functionTimeout"] = functionTimeout,
            ["customHandler"] = new JsonObject
            {
                ["description"] = new JsonObject { ["defaultExecutablePath"] = "node", ["arguments"] = new JsonArray(HandlerScript) },
            },
            ["extensions"] = new JsonObject { ["eventHubs"] = JsonNode.Parse(hostJsonExtensions ?? """{"maxEventBatchSize": 10}""") },
        };
        if (retry is not null)
        {
            host["retry"] = JsonNode.Parse(retry);
        }

        File.WriteAllText(Path.Combine(Root, "host.json"), host.ToJsonString());
        File.WriteAllText(Path.Combine(Root, "eventhubs.emulator.json"), """
            {"UserConfig": {"NamespaceConfig": [{"Type": "EventHub", "Name": "testNs", "Entities": [
              {"Name": "input", "PartitionCount": "2", "ConsumerGroups": [{"Name": "fn"}, {"Name": "marker"}]},
              {"Name": "output", "PartitionCount": "2", "ConsumerGroups": [{"Name": "reader"}]}
            ]}], "LoggingConfig": {"Type": "File"}}}
            """);
        WriteLocalSettings(new Dictionary<string, string>());
        AddFunction("Fn", """
            {"bindings": [
              {"type": "eventHubTrigger", "direction": "in", "name": "events", "eventHubName": "%InputHub%", "consumerGroup": "fn",
               "connection": "EventHubConnection", "cardinality": "many", "dataType": "binary"},
              {"type": "eventHub", "direction": "out", "name": "out", "eventHubName": "output", "connection": "EventHubConnection"},
              {"type": "eventHub", "direction": "out", "name": "outBinary", "eventHubName": "output", "connection": "EventHubConnection", "dataType": "binary"}
            ]}
            """);
    }

    public string Root { get; }

    public string Data { get; }

    public string RecordFile { get; }

    public string ScriptFile { get; }

    public Uri? Url { get; private set; }

    /// <summary>The app's storage account (a Blob service connection string); null before the first start.</summary>
    public string? StorageConnection => _storage;

    /// <summary>More devhost settings (<c>Section:Key=Value</c>) for the next start, after the tests' defaults.</summary>
    public List<string> ExtraSettings { get; } = [];

    /// <summary>Environment variables for devhost: the host reads them before local.settings.json, as Core Tools does.</summary>
    public Dictionary<string, string?> Environment { get; } = [];

    /// <summary>An absolute URL on the running devhost (its port changes on every start).</summary>
    public Uri At(string relative) => new(Url!, relative);

    /// <summary>Carries <c>X-DevHost-Admin: 1</c>: the tests act as the developer's tools (pause, resume, peek).</summary>
    public HttpClient Http { get; } = new() { Timeout = TimeSpan.FromSeconds(30), DefaultRequestHeaders = { { "X-DevHost-Admin", "1" } } };

    /// <summary>What every devhost this app ran printed (a restart keeps the earlier runs' lines).</summary>
    public string Output => _earlierOutput + _process?.Output;

    private void AddFunction(string name, string functionJson, bool underFunctionsFolder = true)
    {
        var folder = underFunctionsFolder ? Path.Combine(Root, "functions", name) : Path.Combine(Root, name);
        Directory.CreateDirectory(folder);
        File.WriteAllText(Path.Combine(folder, "function.json"), functionJson);
    }

    /// <summary>
    /// A function whose only binding is the event hub trigger the test functions use (trigger name <c>events</c>,
    /// connection <c>EventHubConnection</c>, cardinality many, binary), on <paramref name="eventHubName"/> with
    /// <paramref name="consumerGroup"/>; <paramref name="retryJson"/> is its function.json <c>retry</c> object.
    /// </summary>
    public void AddTriggeredFunction(string name, string eventHubName = "input", string consumerGroup = "fn", string? retryJson = null, bool underFunctionsFolder = true) =>
        AddFunction(name, $$"""
            {"bindings": [{"type": "eventHubTrigger", "direction": "in", "name": "events", "eventHubName": "{{eventHubName}}", "consumerGroup": "{{consumerGroup}}",
               "connection": "EventHubConnection", "cardinality": "many", "dataType": "binary"}]{{(retryJson is null ? "" : ", \"retry\": " + retryJson)}}}
            """, underFunctionsFolder);

    public void RemoveFunction(string name) => Directory.Delete(Path.Combine(Root, "functions", name), recursive: true);

    /// <summary>Writes local.settings.json with the tests' values, then <paramref name="extra"/>; AzureWebJobsStorage is
    /// the app's azurite unless <paramref name="extra"/> sets it.</summary>
    public void WriteLocalSettings(Dictionary<string, string> extra)
    {
        _extraValues = extra;
        var values = new JsonObject
        {
            ["FUNCTIONS_WORKER_RUNTIME"] = "custom",
            ["EventHubConnection"] = "Endpoint=sb://127.0.0.1:5672;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=SAS_KEY_VALUE;UseDevelopmentEmulator=true",
            ["InputHub"] = "input",
            ["TEST_VALUE"] = "from-local-settings",
            ["RECORD_FILE"] = RecordFile,
            ["SCRIPT_FILE"] = ScriptFile,
        };
        if (_storage is not null)
        {
            values["AzureWebJobsStorage"] = _storage;
        }

        foreach ((var key, var value) in extra)
        {
            values[key] = value;
        }

        _localSettingsWritten = new JsonObject { ["IsEncrypted"] = false, ["Values"] = values }.ToJsonString();
        File.WriteAllText(Path.Combine(Root, "local.settings.json"), _localSettingsWritten);
    }

    private string? _localSettingsWritten;

    /// <summary>True unless a test wrote local.settings.json itself (a malformed file, say): that one stays as written.</summary>
    private bool LocalSettingsAreOurs =>
        _localSettingsWritten is null || File.ReadAllText(Path.Combine(Root, "local.settings.json")) == _localSettingsWritten;

    public void SetScript(string json)
    {
        // Written whole and renamed, so the handler never reads half a script.
        var temporary = ScriptFile + ".tmp";
        File.WriteAllText(temporary, json);
        File.Move(temporary, ScriptFile, overwrite: true);
    }

    /// <summary>Starts devhost and waits for its "listening" line; returns the exit code instead when it stops first.</summary>
    public async Task<int?> StartAsync(TimeSpan? timeout = null)
    {
        if (_process is not null)
        {
            _earlierOutput += _process.Output;
            await _process.DisposeAsync();
            _process = null;
        }

        if (_storage is null)
        {
            _storage = await SharedAzurite.RentAccountAsync();
            if (LocalSettingsAreOurs)
            {
                WriteLocalSettings(_extraValues);
            }
        }

        try
        {
            var devHost = await DevHostProcess.StartAsync(new DevHostStart
            {
                AppRoot = Root,
                DataDirectory = Data,
                Settings = ["EventHubs:Sas:AllowAnonymous=true", "EventHubs:Durability=None", .. ExtraSettings],
                Environment = Environment,
                StartTimeout = timeout ?? TimeSpan.FromSeconds(90), // generous: a loaded machine starts devhost slowly
            });
            (_process, Url) = (devHost.Process, devHost.BaseAddress);
            return null;
        }
        catch (ChildProcessExitedException e)
        {
            _earlierOutput += e.Output;
            return e.ExitCode;
        }
    }

    /// <summary>SIGTERM (what Ctrl+C or `kill` sends): devhost shuts down gracefully. Returns its exit code.</summary>
    public Task<int> TerminateAsync() => _process!.TerminateAsync(TimeSpan.FromSeconds(30));

    /// <summary>kill -9 of devhost alone: no shutdown code runs, its handler outlives it as after a crash.</summary>
    public async Task KillAsync()
    {
        if (_process is not null)
        {
            await _process.KillAsync(entireProcessTree: false);
        }
    }

    public async Task SendAsync(string hub, string partitionId, params string[] bodies)
    {
        var json = JsonSerializer.Serialize(bodies.Select(b => new { Body = b, UserProperties = new { kind = "test", n = 7 } }));
        using var content = new StringContent(json, Encoding.UTF8, "application/vnd.microsoft.servicebus.json");
        using var response = await Http.PostAsync(At($"{hub}/partitions/{partitionId}/messages"), content);
        Assert.True(response.IsSuccessStatusCode, $"send: {(int)response.StatusCode} {await response.Content.ReadAsStringAsync()}");
    }

    public async Task<List<JsonElement>> PeekAsync(string hub, string partitionId)
    {
        using var document = JsonDocument.Parse(await Http.GetStringAsync(At($"{hub}/partitions/{partitionId}/events?from=0&max=1000")));
        var root = document.RootElement;
        var events = root.ValueKind == JsonValueKind.Array ? root : root.GetProperty("events");
        return events.EnumerateArray().Select(e => e.Clone()).ToList();
    }

    public async Task<JsonElement> StatusAsync()
    {
        using var document = JsonDocument.Parse(await Http.GetStringAsync(At("status/functions")));
        return document.RootElement.Clone();
    }

    /// <summary>The emulator's <c>GET /status</c>, which also carries the Functions host's part as <c>functionsHost</c>.</summary>
    public async Task<JsonElement> DevHostStatusAsync()
    {
        using var document = JsonDocument.Parse(await Http.GetStringAsync(At("status")));
        return document.RootElement.Clone();
    }

    /// <summary>Runs <c>devhost status --url</c> against this devhost, as a user would, until it exits.</summary>
    public async Task<(int ExitCode, string Output, string Errors)> RunStatusCommandAsync()
    {
        await using var status = await DevHostProcess.RunAsync(["status", "--url", Url!.ToString()], TimeSpan.FromSeconds(30));
        return (status.ExitCode, status.StandardOutput, status.StandardError);
    }

    /// <summary>The checkpointed sequence number of Fn on a partition, null before the first checkpoint.</summary>
    public async Task<long?> CheckpointAsync(string partitionId, string function = "Fn")
    {
        var status = await StatusAsync();
        var fn = status.GetProperty("functions").EnumerateArray().Single(f => f.GetProperty("name").GetString() == function);
        var partition = fn.GetProperty("partitions").EnumerateArray().Single(p => p.GetProperty("partitionId").GetString() == partitionId);
        var checkpoint = partition.GetProperty("checkpointSequenceNumber");
        return checkpoint.ValueKind == JsonValueKind.Null ? null : checkpoint.GetInt64();
    }

    public List<Record> Records()
    {
        var records = new List<Record>();
        var text = File.ReadAllText(RecordFile);
        // The handler appends while tests read: a line without its newline is still being written, so it is left for the next read.
        var complete = text[..(text.LastIndexOf('\n') + 1)];
        foreach (var line in complete.Split('\n'))
        {
            if (line.Length > 0)
            {
                using var document = JsonDocument.Parse(line);
                records.Add(new Record(document.RootElement.Clone()));
            }
        }

        return records;
    }

    /// <summary>
    /// An outage of Fn and its end: sends one event to <paramref name="partitionId"/> while Fn's script fails or hangs,
    /// waits for <paramref name="attempts"/> attempts and checks none moved the checkpoint, then lets Fn succeed and waits
    /// until the checkpoint covers the event. The event must be the partition's first and the app's first invocation: the
    /// attempts are counted from all records, and the checks expect no checkpoint during the outage and checkpoint 0 (its
    /// sequence number) after it. It leaves the script as
    /// <c>{"Fn": {"mode": "ok"}}</c>, whatever the script held before.
    /// </summary>
    public async Task SendThroughOutageAsync(string partitionId, int attempts)
    {
        await SendAsync("input", partitionId, "a");
        await WaitForRecordsAsync(r => r.Count >= attempts, $"{attempts} attempt(s) during the outage");
        Assert.Null(await CheckpointAsync(partitionId));

        SetScript("""{"Fn": {"mode": "ok"}}""");
        await WaitUntilAsync(async () => await CheckpointAsync(partitionId) == 0, "the checkpoint once the handler succeeds");
    }

    /// <summary>Waits until <paramref name="condition"/> holds (bounded: 30 s), else fails with devhost's output.</summary>
    public Task WaitUntilAsync(Func<Task<bool>> condition, string what, double seconds = 30) =>
        Eventually.UntilAsync(condition, what, TimeSpan.FromSeconds(seconds), context: () => "--- devhost output ---\n" + Output);

    public Task WaitForRecordsAsync(Func<List<Record>, bool> condition, string what, double seconds = 30) =>
        WaitUntilAsync(() => Task.FromResult(condition(Records())), what, seconds);

    public async ValueTask DisposeAsync()
    {
        if (_process is not null)
        {
            await _process.DisposeAsync(); // kills devhost and the handler it runs
        }

        // A handler whose devhost was killed with -9 outlives it (devhost stops it at its next start, which a test may
        // not do): stop every handler this app ever ran.
        foreach (var pid in Records().Select(r => r.Pid).Distinct())
        {
            try
            {
                using var handler = Process.GetProcessById(pid);
                handler.Kill();
            }
            catch (ArgumentException)
            {
                // Already gone.
            }
        }

        Http.Dispose();
        try
        {
            Directory.Delete(Root, recursive: true);
        }
        catch (IOException)
        {
            // A handler being killed may still hold a file for a moment; the temp folder is harmless.
        }
    }
}

/// <summary>One request the handler received.</summary>
public sealed class Record(JsonElement raw)
{
    public JsonElement Raw { get; } = raw;

    public int Pid => Raw.GetProperty("pid").GetInt32();

    public string Url => Raw.GetProperty("url").GetString()!;

    public string Header(string name) => Raw.GetProperty("headers").TryGetProperty(name.ToLowerInvariant(), out var v) ? v.GetString()! : "";

    public bool HasHeader(string name) => Raw.GetProperty("headers").TryGetProperty(name.ToLowerInvariant(), out _);

    public JsonElement Body => JsonDocument.Parse(Raw.GetProperty("body").GetString()!).RootElement;

    public JsonElement Metadata => Body.GetProperty("Metadata");

    /// <summary>A Metadata value that is a JSON string holding JSON text, parsed.</summary>
    public JsonElement MetadataText(string name)
    {
        var value = Metadata.GetProperty(name);
        Assert.Equal(JsonValueKind.String, value.ValueKind);
        return JsonDocument.Parse(value.GetString()!).RootElement;
    }

    public long[] SequenceNumbers => MetadataText("SequenceNumberArray").EnumerateArray().Select(e => e.GetInt64()).ToArray();

    public string PartitionId => Metadata.GetProperty("PartitionContext").GetProperty("PartitionId").GetString()!;

    public byte[][] Bodies
    {
        get
        {
            var data = Body.GetProperty("Data").GetProperty("events");
            Assert.Equal(JsonValueKind.String, data.ValueKind);
            return JsonDocument.Parse(data.GetString()!).RootElement.EnumerateArray().Select(e => Convert.FromBase64String(e.GetString()!)).ToArray();
        }
    }
}
