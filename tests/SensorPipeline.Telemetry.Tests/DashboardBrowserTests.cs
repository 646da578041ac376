using System.Globalization;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;
using Microsoft.Playwright;
using SensorPipeline.FunctionsHost.Status;

namespace SensorPipeline.Telemetry.Tests;

/// <summary>
/// The dashboard in a real browser: Debian's chromium (never a downloaded one) driven headless by Playwright. A known
/// run goes through the real SDK to /v2/track; the page must show exactly those figures, pick up new telemetry on its
/// own, and show the lag devhost reports. The screenshot is kept as a CI artifact.
/// </summary>
public sealed class DashboardBrowserTests
{
    /// <summary>Where CI expects the browser (<c>apt-get install -y chromium</c>).</summary>
    private const string Chromium = "/usr/bin/chromium";

    /// <summary>What devhost's /status/functions says, typed as the local Functions host writes it.</summary>
    private static readonly FunctionsHostStatus Status = new(4242, 5001, 1,
    [
        new FunctionStatus("Splitter", "ingestion", "splitter", false, 2, 0, 0,
            [new PartitionStatus("0", 9, DateTimeOffset.UnixEpoch, 9, 0, 0, 0, false, null, null, 0), new PartitionStatus("1", 4, DateTimeOffset.UnixEpoch, 4, 0, 0, 0, false, null, null, 0)]),
        new FunctionStatus("WeatherProcessor", "weather", "weather-processor", true, 1, 1, 0,
            [new PartitionStatus("0", 10, DateTimeOffset.UnixEpoch, 1244, 1234, 0, 0, false, null, null, 0), new PartitionStatus("1", null, null, 56, 57, 0, 0, false, null, null, 0)]),
    ]);

    /// <summary>What devhost's /status/functions/ownership says: Splitter steady on one instance; WeatherProcessor on two
    /// until instance-b is killed (its partition 1 without an owner for a bin, then taken over by instance-a).</summary>
    private static OwnershipTimeline Ownership(DateTimeOffset now)
    {
        var t0 = now.AddSeconds(-15);
        return new OwnershipTimeline(true, now, 0.5, 900, 5,
        [
            new FunctionOwnershipTimeline("Splitter", 2, 1, 2, ["splitter-1", "splitter-1"], ["splitter-1"],
                [new OwnershipBin(t0, 1, 1, 1, 0, 2, [0, 0]), new OwnershipBin(t0.AddSeconds(5), 1, 1, 1, 0, 2, [0, 0]), new OwnershipBin(t0.AddSeconds(10), 1, 1, 1, 0, 2, [0, 0])]),
            new FunctionOwnershipTimeline("WeatherProcessor", 2, 1, 3, ["instance-a", "instance-a"], ["instance-a", "instance-b"],
                [new OwnershipBin(t0, 2, 2, 2, 0, 2, [0, 1]), new OwnershipBin(t0.AddSeconds(5), 1, 1, 2, 0, 2, [0, -1]), new OwnershipBin(t0.AddSeconds(10), 1, 1, 1, 1, 3, [0, 0])]),
        ]);
    }

    [Fact]
    public async Task Dashboard_KnownRun_ShowsTheNumbersReceivedAndUpdates()
    {
        Assert.True(File.Exists(Chromium), $"{Chromium} is missing: run 'apt-get update && apt-get install -y chromium' (./pipeline does this in CI)");
        await using var server = await TelemetryServer.StartAsync(app =>
        {
            app.MapGet("/status/functions", () => TypedResults.Ok(Status));
            app.MapGet("/status/functions/ownership", () => TypedResults.Ok(Ownership(DateTimeOffset.UtcNow)));
        });
        using var known = new KnownTelemetry(server.ConnectionString);
        known.FeedAndFlush();
        var summary = await server.WaitForAsync(s => s.Functions.Count == 2 && s.Cosmos.Count == 1);

        using var playwright = await Playwright.CreateAsync();
        await using var browser = await playwright.Chromium.LaunchAsync(new BrowserTypeLaunchOptions
        {
            ExecutablePath = Chromium,
            Headless = true,
            Args = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
            Timeout = 30_000,
        });
        var page = await browser.NewPageAsync(new BrowserNewPageOptions { ViewportSize = new ViewportSize { Width = 1500, Height = 1100 } });
        var consoleErrors = new List<string>();
        page.Console += (_, message) =>
        {
            if (message.Type == "error")
            {
                consoleErrors.Add(message.Text);
            }
        };
        page.PageError += (_, error) => consoleErrors.Add(error);

        await page.GotoAsync(server.At("dashboard").ToString());
        await page.WaitForFunctionAsync("() => document.querySelector('[data-testid=\"fn-WeatherProcessor-e2e-p99\"]')?.dataset.value !== undefined",
            null, new PageWaitForFunctionOptions { Timeout = 15_000 });

        // Counters: exactly what the SDK sent.
        Assert.Equal("15", await Text(page, "fn-Splitter-events"));
        Assert.Equal("60", await Text(page, "fn-Splitter-readings"));
        Assert.Equal(KnownTelemetry.WeatherReadings.ToString(CultureInfo.InvariantCulture), await Text(page, "fn-WeatherProcessor-readings"));
        Assert.Equal(KnownTelemetry.WeatherLatencies.Count.ToString(CultureInfo.InvariantCulture), await Text(page, "fn-WeatherProcessor-written"));
        Assert.Equal("3", await Text(page, "total-stale"));
        Assert.Equal("3", await Text(page, "total-deadletters"));
        Assert.Equal("2", await Text(page, "dl-WeatherProcessor-invalid-coordinates"));
        Assert.Equal("2", await Text(page, "total-throttled"));
        Assert.Equal("55", await Text(page, "cosmos-readings-ru"));
        Assert.Equal("2500 ms", await Text(page, "worst-freshness"));

        // Percentiles: the value behind the cell is the summary's, and the text shows it to 4 significant digits.
        var weather = Assert.Single(summary.Functions, f => f.Function == "WeatherProcessor").EndToEnd!;
        foreach (var (id, p, fromSummary) in new[] { ("p50", 0.5, weather.P50), ("p90", 0.9, weather.P90), ("p99", 0.99, weather.P99), ("p999", 0.999, weather.P999) })
        {
            var expected = KnownTelemetry.ExpectedWeatherPercentile(p);
            Assert.Equal(expected, fromSummary);
            Assert.Equal(expected, double.Parse((await page.GetAttributeAsync($"[data-testid='fn-WeatherProcessor-e2e-{id}']", "data-value"))!, CultureInfo.InvariantCulture));
            Assert.Equal(expected, Milliseconds(await Text(page, $"fn-WeatherProcessor-e2e-{id}")), 0.0005 * expected);
        }

        Assert.Equal("700,000 ms", await Text(page, "fn-WeatherProcessor-e2e-max"));

        // Lag per partition and consumer group, from devhost's /status/functions.
        Assert.Equal("1,234", await Text(page, "lag-WeatherProcessor-0"));
        Assert.Equal("57", await Text(page, "lag-WeatherProcessor-1"));
        Assert.Equal("1,291", await Text(page, "total-lag"));

        // Scale-out, from devhost's ownership history: instances and changes now, the owner of each partition, the kill
        // as a marker on both charts, and partition 1's three owners over time (b, none, a) as three strip cells.
        await page.WaitForFunctionAsync("() => document.querySelector('[data-testid=\"instances-WeatherProcessor\"]')?.dataset.value !== undefined",
            null, new PageWaitForFunctionOptions { Timeout = 15_000 });
        Assert.Equal("1", await Text(page, "instances-WeatherProcessor"));
        Assert.Equal("3", await Text(page, "ownership-changes-WeatherProcessor"));
        Assert.Equal("2", await Text(page, "ownership-changes-Splitter"));
        Assert.Equal("instance-a", await page.GetAttributeAsync("[data-testid='owner-WeatherProcessor-1']", "data-owner"));
        Assert.Equal("splitter-1", await page.GetAttributeAsync("[data-testid='owner-Splitter-0']", "data-owner"));
        Assert.Equal(2, await page.Locator("[data-testid='chart-instances'] path").CountAsync());
        Assert.Equal(1, await page.Locator("[data-testid='chart-instances'] line[data-marker='lost']").CountAsync());
        Assert.Equal(1, await page.Locator("[data-testid='chart-ownership-changes'] line[data-marker='lost']").CountAsync());
        Assert.Equal(0, await page.Locator("line[data-marker='added']").CountAsync());
        Assert.Equal(1 + 3, await page.Locator("[data-testid='ownership-strip-WeatherProcessor'] rect").CountAsync());
        Assert.Equal(["p0: instance-a", "p1: instance-b", "p1: no owner", "p1: instance-a"],
            await page.Locator("[data-testid='ownership-strip-WeatherProcessor'] rect title").AllTextContentsAsync());

        // Telemetry bytes: what devhost counted.
        var ingestion = (await server.SummaryAsync()).Ingestion;
        Assert.Equal(ingestion.BytesCompressed.ToString("N0", CultureInfo.InvariantCulture), await Text(page, "ingest-bytes-compressed"));

        // Live: a second run appears without a reload (the page polls every 2 s; the wait allows several polls).
        known.FeedAndFlush();
        await page.WaitForFunctionAsync("() => document.querySelector('[data-testid=\"fn-Splitter-events\"]')?.textContent === '30'",
            null, new PageWaitForFunctionOptions { Timeout = 10_000 });
        Assert.Equal("120", await Text(page, "fn-Splitter-readings"));
        Assert.Equal(2, await page.Locator("[data-testid='chart-throughput'] path").CountAsync());

        await page.ScreenshotAsync(new PageScreenshotOptions { Path = ScreenshotPath(), FullPage = true });
        Assert.Empty(consoleErrors);
    }

    private static async Task<string> Text(IPage page, string testId) =>
        (await page.Locator($"[data-testid='{testId}']").TextContentAsync())!.Trim();

    private static double Milliseconds(string text) =>
        double.Parse(text.Replace(" ms", "", StringComparison.Ordinal).Replace(",", "", StringComparison.Ordinal), CultureInfo.InvariantCulture);

    /// <summary>$TEST_RESULTS_DIR/dashboard.png, else .pipeline/test-results/dashboard.png in the repository (what ./pipeline test keeps).</summary>
    private static string ScreenshotPath()
    {
        var dir = Environment.GetEnvironmentVariable("TEST_RESULTS_DIR");
        if (string.IsNullOrEmpty(dir))
        {
            dir = Path.Combine(RepoLayout.Current.Root, ".pipeline", "test-results");
        }

        Directory.CreateDirectory(dir);
        return Path.Combine(dir, "dashboard.png");
    }
}
