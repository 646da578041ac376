using System.Net.Http.Json;
using System.Text.Json;
using Microsoft.Azure.Cosmos;
using Microsoft.Playwright;
using SensorPipeline.Protos;

namespace SensorPipeline.Explorer.Tests;

/// <summary>
/// The explorer in a real browser (Debian's chromium, headless, driven by Playwright as the dashboard's test is) against
/// one shared stack with a known data set (<see cref="ExplorerFixture"/>): the peeked events decode to what loadgen sent,
/// a query shows its charge, the map has one mark per device, and a re-drive moves a letter. A screenshot of each page
/// is kept with the test results.
/// </summary>
public sealed class ExplorerBrowserTests(ExplorerFixture stack) : IClassFixture<ExplorerFixture>, IAsyncLifetime
{
    private const string Chromium = "/usr/bin/chromium";
    private static readonly PageWaitForFunctionOptions Wait = new() { Timeout = 30_000 };
    private IPlaywright _playwright = null!;
    private IBrowser _browser = null!;
    private IPage _page = null!;
    private readonly List<string> _consoleErrors = [];

    public async Task InitializeAsync()
    {
        Assert.True(File.Exists(Chromium), $"{Chromium} is missing: run 'apt-get update && apt-get install -y chromium' (./pipeline does this in CI)");
        _playwright = await Playwright.CreateAsync();
        _browser = await _playwright.Chromium.LaunchAsync(new BrowserTypeLaunchOptions
        {
            ExecutablePath = Chromium,
            Headless = true,
            Args = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
            Timeout = 30_000,
        });
        _page = await _browser.NewPageAsync(new BrowserNewPageOptions { ViewportSize = new ViewportSize { Width = 1400, Height = 1000 } });
        _page.Console += (_, message) =>
        {
            if (message.Type == "error")
            {
                _consoleErrors.Add(message.Text);
            }
        };
        _page.PageError += (_, error) => _consoleErrors.Add(error);
        _page.Response += (_, response) =>
        {
            if (response.Status >= 400)
            {
                _consoleErrors.Add($"{response.Status} {response.Url}");
            }
        };
    }

    private async Task OpenAsync(string tab)
    {
        await _page.GotoAsync(stack.ExplorerUrl + "#" + tab);
        await _page.WaitForFunctionAsync("() => document.body.dataset.ready === '1'", null, Wait);
    }

    [Fact]
    public async Task HubsPage_PeekPartition_EventsDecodeToWhatLoadGenSent()
    {
        await OpenAsync("hubs");
        await _page.Locator("[data-testid='hub-ingestion']").WaitForAsync();
        await _page.SelectOptionAsync("#peek-hub", "ingestion");
        await _page.SelectOptionAsync("#peek-partition", "0");
        await _page.FillAsync("#peek-position", "0");
        await _page.FillAsync("#peek-count", "3");
        await _page.ClickAsync("[data-testid='peek-button']");
        await _page.WaitForFunctionAsync("() => document.querySelector('[data-testid=\"peek-status\"]')?.dataset.count === '3'", null, Wait);

        var shown = await _page.Locator("[data-testid='peek-event'] [data-testid='peek-reading']").EvaluateAllAsync<string[]>(
            "rows => rows.map(r => r.dataset.device + '#' + r.dataset.sequence)");
        Assert.Equal(await SentAsync(partition: "0", count: 3), shown);
        Assert.Equal(3, await _page.Locator("[data-testid='peek-format']").CountAsync());
        await ScreenshotAsync("hubs");
    }

    /// <summary>What loadgen sent, read back through the emulator's own peek and decoded with the generated protobuf
    /// parser, not the explorer's decoder.</summary>
    private async Task<string[]> SentAsync(string partition, int count)
    {
        using var http = new HttpClient { BaseAddress = stack.Pipeline.DevHostUrl };
        http.DefaultRequestHeaders.Add("X-DevHost-Admin", "1");
        var events = await http.GetFromJsonAsync<JsonElement>($"ingestion/partitions/{partition}/events?from=0&max={count}");
        return [.. events.EnumerateArray()
            .SelectMany(e => ReadingBatch.Parser.ParseFrom(e.GetProperty("bodyBase64").GetBytesFromBase64()).Readings)
            .Select(r => r.DeviceId + "#" + r.Sequence)];
    }

    [Fact]
    public async Task CosmosPage_Query_ShowsRowsAndRequestCharge()
    {
        await OpenAsync("cosmos");
        await _page.Locator("[data-testid='container-devices']").WaitForAsync();
        await _page.SelectOptionAsync("#query-container", "devices");
        await _page.FillAsync("#query-sql", "SELECT c.id FROM c WHERE c.type = 'Feature'");
        await _page.ClickAsync("[data-testid='query-button']");
        await _page.Locator("[data-testid='query-charge']").WaitForAsync();

        var charge = double.Parse((await _page.GetAttributeAsync("[data-testid='query-charge']", "data-value"))!, System.Globalization.CultureInfo.InvariantCulture);
        var rows = JsonDocument.Parse((await _page.Locator("[data-testid='query-rows']").TextContentAsync())!).RootElement;
        Assert.True(charge > 0, $"charge {charge}");
        Assert.Equal(ExplorerFixture.Devices, rows.GetArrayLength());
        // The account's own figures, as the service gives them: the container's document count (x-ms-resource-usage)
        // and the query's metrics (x-ms-documentdb-query-metrics).
        var count = (await _page.Locator("[data-testid='container-devices-count']").TextContentAsync())!.Replace(",", "", StringComparison.Ordinal);
        Assert.True(int.TryParse(count, System.Globalization.CultureInfo.InvariantCulture, out var documents) && documents >= ExplorerFixture.Devices, $"devices count cell: '{count}'");
        Assert.Contains($"outputDocumentCount={ExplorerFixture.Devices};", await _page.Locator("#query-metrics").TextContentAsync(), StringComparison.Ordinal);
        await ScreenshotAsync("cosmos");
    }

    [Fact]
    public async Task DevicesPage_Map_OneMarkPerDeviceAndClickShowsReadings()
    {
        var stored = new List<string>();
        using (var iterator = stack.Cosmos.GetContainer(ExplorerFixture.Database, "devices").GetItemQueryIterator<string>("SELECT VALUE c.id FROM c WHERE c.type = 'Feature'"))
        {
            while (iterator.HasMoreResults)
            {
                stored.AddRange(await iterator.ReadNextAsync());
            }
        }

        await OpenAsync("devices");
        await _page.WaitForFunctionAsync($"() => document.querySelectorAll('[data-testid=\"device-mark\"]').length === {ExplorerFixture.Devices}", null, Wait);
        await _page.Locator("[data-testid='land']").WaitForAsync(new LocatorWaitForOptions { State = WaitForSelectorState.Attached });

        var marks = await _page.Locator("[data-testid='device-mark']").EvaluateAllAsync<string[]>("marks => marks.map(m => m.dataset.device)");
        Assert.Equal(stored.Order(StringComparer.Ordinal), marks.Order(StringComparer.Ordinal));
        await _page.Locator($"[data-testid='device-mark'][data-device='{stored[0]}']").ClickAsync(new LocatorClickOptions { Force = true });
        await _page.Locator($"[data-testid='device-card'][data-device='{stored[0]}'] tbody tr").First.WaitForAsync();
        await ScreenshotAsync("devices");
    }

    [Fact]
    public async Task DeadLettersPage_DryRunThenConfirm_LetterReDrivenAndMarked()
    {
        var letters = stack.Cosmos.GetContainer(ExplorerFixture.Database, "deadletters");
        var id = stack.Letter.Id;
        await OpenAsync("deadletters");
        var card = _page.Locator($"[data-testid='dl-letter'][data-id='{id}']");
        await card.WaitForAsync();
        await card.Locator("[data-testid='dl-select']").CheckAsync();
        await ScreenshotAsync("deadletters");

        await _page.ClickAsync("[data-testid='dl-dryrun']");
        await _page.Locator("[data-testid='dl-dryrun-summary']").WaitForAsync();
        Assert.Equal("dry run: 1 would be sent, 0 skipped", (await _page.Locator("[data-testid='dl-dryrun-summary']").TextContentAsync())!.Trim());
        Assert.Equal(0, await RedriveCountAsync(letters, id));
        Assert.Equal("Re-drive 1 letter", (await _page.Locator("[data-testid='dl-confirm']").TextContentAsync())!.Trim());

        await _page.ClickAsync("[data-testid='dl-confirm']");
        await _page.Locator("[data-testid='dl-redrive-summary']").WaitForAsync();
        Assert.Equal("re-driven: 1 sent, 0 skipped, 0 failed", (await _page.Locator("[data-testid='dl-redrive-summary']").TextContentAsync())!.Trim());
        Assert.Equal(1, await RedriveCountAsync(letters, id));
        await _page.WaitForFunctionAsync($"() => document.querySelector('[data-testid=\"dl-letter\"][data-id=\"{id}\"]')?.dataset.redriveCount === '1'", null, Wait);
    }

    private static async Task<int> RedriveCountAsync(Container letters, string id)
    {
        using var response = await letters.ReadItemStreamAsync(id, new PartitionKey(id));
        response.EnsureSuccessStatusCode();
        using var document = await JsonDocument.ParseAsync(response.Content);
        return document.RootElement.TryGetProperty("redriveCount", out var count) ? count.GetInt32() : 0;
    }

    /// <summary>$TEST_RESULTS_DIR/explorer-NAME.png, else .pipeline/test-results/ in the repository.</summary>
    private async Task ScreenshotAsync(string name)
    {
        var dir = Environment.GetEnvironmentVariable("TEST_RESULTS_DIR");
        if (string.IsNullOrEmpty(dir))
        {
            dir = Path.Combine(RepoLayout.Current.Root, ".pipeline", "test-results");
        }

        Directory.CreateDirectory(dir);
        await _page.ScreenshotAsync(new PageScreenshotOptions { Path = Path.Combine(dir, $"explorer-{name}.png"), FullPage = false });
    }

    public async Task DisposeAsync()
    {
        Assert.Empty(_consoleErrors);
        await _browser.DisposeAsync();
        _playwright.Dispose();
    }
}
