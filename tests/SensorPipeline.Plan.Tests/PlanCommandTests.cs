using SensorPipeline.Plan.Output;

namespace SensorPipeline.Plan.Tests;

/// <summary>The command as ./pipeline runs it, in a scratch root holding copies of the checked-in prices and the tests'
/// fixed per-reading inputs as its defaults.</summary>
public sealed class PlanCommandTests : IDisposable
{
    private readonly string _root = Directory.CreateTempSubdirectory("plan-tests-").FullName;

    public PlanCommandTests()
    {
        Directory.CreateDirectory(Path.Combine(_root, "infra", "prices"));
        Directory.CreateDirectory(Path.Combine(_root, "infra", "SensorPipeline.Plan"));
        File.Copy(Path.Combine(Repository.Root, "infra", "prices", "eastus.json"), Path.Combine(_root, "infra", "prices", "eastus.json"));
        File.Copy(Repository.FixedInputsFile, Path.Combine(_root, "infra", "SensorPipeline.Plan", "per-reading.defaults.json"));
        File.Copy(Repository.RangesDefaultsFile, Path.Combine(_root, "infra", "SensorPipeline.Plan", "ranges.defaults.json"));
    }

    public void Dispose() => Directory.Delete(_root, recursive: true);

    private (int Code, string Output, string Error) Run(string? envName, params string[] args)
    {
        var output = new StringWriter();
        var error = new StringWriter();
        var code = PlanCommand.Run(args, _root, name => name == "AZURE_ENV_NAME" ? envName : null, output, error);
        return (code, output.ToString(), error.ToString());
    }

    [Fact]
    public void Run_Azd_WritesTheProfileIntoTheEnvironmentKeepingOtherKeys()
    {
        var env = Path.Combine(_root, ".azure", "load", ".env");
        Directory.CreateDirectory(Path.GetDirectoryName(env)!);
        File.WriteAllLines(env, ["AZURE_LOCATION=\"eastus\"", "EVENTHUBS_SKU=\"Premium\"", "# plan: an older plan", "# demand COSMOS_READINGS_RU=1"]);

        var (code, output, _) = Run("load", "--rate", "100000", "--azd");

        Assert.Equal(0, code);
        Assert.Contains(".azure/load/.env", output, StringComparison.Ordinal);
        var lines = File.ReadAllLines(env);
        Assert.Contains("AZURE_LOCATION=\"eastus\"", lines);
        Assert.Contains("EVENTHUBS_SKU=\"Standard\"", lines);
        Assert.DoesNotContain("EVENTHUBS_SKU=\"Premium\"", lines);
        Assert.DoesNotContain("# plan: an older plan", lines);
        Assert.Contains("COSMOS_READINGS_THROUGHPUT=\"2160000\"", lines);
        Assert.Single(lines, l => l.StartsWith("# demand COSMOS_READINGS_RU=", StringComparison.Ordinal));
    }

    [Fact]
    public void Run_AzdWithoutEnvName_UsesTheDefaultEnvironmentOfConfigJson()
    {
        Directory.CreateDirectory(Path.Combine(_root, ".azure"));
        File.WriteAllText(Path.Combine(_root, ".azure", "config.json"), """{"version":1,"defaultEnvironment":"fromconfig"}""");

        var (code, _, _) = Run(null, "--rate", "1000", "--azd");

        Assert.Equal(0, code);
        Assert.Contains("PIPELINE_PROFILE=\"plan-1000\"", File.ReadAllLines(Path.Combine(_root, ".azure", "fromconfig", ".env")));
    }

    [Fact]
    public void Run_AzdAtAPlanOnlyRate_RefusesNamingTheLimitAndWritesNothing()
    {
        var (code, output, error) = Run("load", "--rate", "1000000", "--azd");

        Assert.Equal(4, code);
        Assert.Contains("PLAN-ONLY", output, StringComparison.Ordinal);
        Assert.Contains("at most 16", error, StringComparison.Ordinal);
        Assert.Contains("Dedicated", error, StringComparison.Ordinal);
        Assert.False(Directory.Exists(Path.Combine(_root, ".azure")));
    }

    /// <summary>Arguments refused with exit 1, and the fragments the error must hold: another region (named, with the
    /// regions that have sourced prices).</summary>
    public static TheoryData<string?, string[], string[]> ExitOneRefusals => new()
    {
        { null, ["--rate", "1000", "--region", "westeurope"], ["no prices for region 'westeurope'", "Sourced regions: eastus"] },
    };

    /// <summary>Wrong command lines, refused with the usage exit code (2) before anything is read or written, each with
    /// the option its message must name.</summary>
    public static TheoryData<string[], string> UsageRefusals => new()
    {
        { ["--rate", "100000", "--expiry", "windows", "--azd"], "--expiry windows is plan-only" },
        { ["--readings-per-event", "200"], "--rate" },
        { ["--rate", "fast"], "--rate: 'fast' is not a rate" },
        { ["--rate", "1000", "--retention", "soon"], "--retention: 'soon' is not a duration" },
        { ["--rate", "1000", "--bogus"], "--bogus" },
        { ["--rate", "1000", "--devices", "0"], "--devices must be a number of at least 1" },
    };

    [Theory]
    [MemberData(nameof(UsageRefusals))]
    public void Run_WrongForm_ExitsWithUsageNamingTheOption(string[] args, string expected)
    {
        var (code, output, error) = Run("dev", args);

        Assert.Equal(2, code);
        Assert.Contains(expected, error, StringComparison.Ordinal);
        Assert.Equal(string.Empty, output);
        Assert.False(Directory.Exists(Path.Combine(_root, ".azure")));
    }

    [Fact]
    public void Run_Help_PrintsEveryOptionAndExitsZero()
    {
        var (code, output, _) = Run(null, "--help");

        Assert.Equal(0, code);
        foreach (var option in new[] { "--rate", "--readings-per-event", "--devices", "--retention", "--expiry", "--window", "--reserved", "--zones", "--region", "--azd", "--env-file" })
        {
            Assert.Contains(option, output, StringComparison.Ordinal);
        }
    }

    [Theory]
    [InlineData("7d")]
    [InlineData("168h")]
    [InlineData("7")]
    public void Run_RetentionInEachForm_PlansTheSameDays(string retention)
    {
        var (code, output, _) = Run(null, "--rate", "1000", "--retention", retention);

        Assert.Equal(0, code);
        Assert.Equal(Run(null, "--rate", "1000", "--retention", "7d").Output, output);
    }

    [Theory]
    [MemberData(nameof(ExitOneRefusals))]
    public void Run_RefusedArguments_ExitOneNamingWhy(string? envName, string[] args, string[] fragments)
    {
        var (code, _, error) = Run(envName, args);

        Assert.Equal(1, code);
        foreach (var fragment in fragments)
        {
            Assert.Contains(fragment, error, StringComparison.Ordinal);
        }

        if (args.Contains("--azd"))
        {
            // Only --azd writes an environment; refused, it writes none.
            Assert.False(Directory.Exists(Path.Combine(_root, ".azure")));
        }
    }

    [Fact]
    public void Run_APriceWithoutASource_FailsNamingTheFileAndTheEntry()
    {
        var file = Path.Combine(_root, "infra", "prices", "eastus.json");
        File.WriteAllText(file, File.ReadAllText(file).Replace("\"source\": \"https://learn.microsoft.com/azure/cosmos-db/understand-your-bill (US non-government regions)\",", "", StringComparison.Ordinal));

        var (code, _, error) = Run(null, "--rate", "1000");

        Assert.Equal(1, code);
        Assert.Contains("eastus.json: prices.cosmos.provisioned.hundredRuHour.source must be a non-empty string", error, StringComparison.Ordinal);
    }

    [Fact]
    public void Run_BenchCostFile_ReplacesTheDefaultsItMeasured()
    {
        Directory.CreateDirectory(Path.Combine(_root, ".pipeline"));
        File.WriteAllText(Path.Combine(_root, ".pipeline", "bench-cost.json"),
            """{"values":{"ru.devicePatch":{"value":4.95,"from":"bench cost"},"ru.ttlDelete":{"value":0,"from":"bench cost"}}}""");

        var (code, output, _) = Run(null, "--rate", "1000");

        // readings 1,000 x 9 = 9,000 RU/s; devices 1,000 x 4.95 = 4,950 RU/s.
        Assert.Equal(0, code);
        Assert.Contains("bench-cost.json (the last ./pipeline bench cost: ru.devicePatch, ru.ttlDelete)", output, StringComparison.Ordinal);
        Assert.Matches(@"│\s+9,000 RU/s │", output);
        Assert.Contains("4,950 RU/s", output, StringComparison.Ordinal);
    }

    [Fact]
    public void Run_Output_MarksUnverifiedPricesAndPrintsTheTargetsAndSensitivity()
    {
        var (code, output, _) = Run(null, "--rate", "100000");

        Assert.Equal(0, code);
        Assert.Contains("* unverified prices", output, StringComparison.Ordinal);
        Assert.Contains("functions.flex.millionExecutions", output, StringComparison.Ordinal);
        Assert.DoesNotContain("cosmos.provisioned.hundredRuHour =", output, StringComparison.Ordinal);
        Assert.Contains("target: Functions + Storage + App Insights <= $2.75/h at 100,000 readings/s", output, StringComparison.Ordinal);
        Assert.Contains("per million readings", output, StringComparison.Ordinal);
        // The sensitivity rows: the ranges bench's three figures, and 1, 4 and 8 index terms per Point.
        var ranges = Repository.Ranges();
        Assert.Contains(string.Create(System.Globalization.CultureInfo.InvariantCulture, $"{ranges.ManyRangesNetMicros:N0} µs ({ranges.Ranges:N0} ranges, net of idle) (this plan)"), output, StringComparison.Ordinal);
        Assert.Contains(string.Create(System.Globalization.CultureInfo.InvariantCulture, $"{ranges.ManyRangesGrossMicros:N0} µs ({ranges.Ranges:N0} ranges, gross)"), output, StringComparison.Ordinal);
        Assert.Contains("8 terms per Point", output, StringComparison.Ordinal);
    }

    [Fact]
    public void Run_Output_PrintsEveryInputWithItsOrigin()
    {
        var (code, output, _) = Run(null, "--rate", "100000");

        Assert.Equal(0, code);
        var inputs = output[output.IndexOf("inputs (value: origin):", StringComparison.Ordinal)..];
        foreach (var key in Repository.Defaults().Entries.Select(e => e.Key))
        {
            Assert.Matches($@"\n  {System.Text.RegularExpressions.Regex.Escape(key)} = [\d.]+: \S", inputs);
        }

        // The processor CPU comes from the ranges bench's file at the plan's range count, not from the costs file.
        Assert.Contains($"cpu.processorMicros = {Repository.Ranges().ManyRangesNetMicros.ToString("0.####", System.Globalization.CultureInfo.InvariantCulture)}: ", inputs, StringComparison.Ordinal);
        Assert.Contains("ranges.defaults.json", inputs, StringComparison.Ordinal);
        Assert.Contains("core's Splitter", inputs, StringComparison.Ordinal);
        Assert.Contains("index storage = 64 B per reading", inputs, StringComparison.Ordinal);
        Assert.Contains("concepts-limits", inputs, StringComparison.Ordinal);
    }

    [Fact]
    public void Run_BenchRangesFile_ReplacesTheCheckedInRangeFigures()
    {
        Directory.CreateDirectory(Path.Combine(_root, ".pipeline"));
        File.WriteAllText(Path.Combine(_root, ".pipeline", "bench-ranges.json"),
            """{"measured":"bench functions ranges, a test","ranges":1024,"oneRange":{"netMicros":50,"grossMicros":90},"manyRanges":{"netMicros":111,"grossMicros":222}}""");

        var (code, output, _) = Run(null, "--rate", "100000");

        Assert.Equal(0, code);
        Assert.Contains("cpu.processorMicros = 111: ", output, StringComparison.Ordinal);
        // The tests' inputs give readings 1,046 physical partitions: more than the file measured, and the plan says so.
        Assert.Contains("1,046 physical partitions: the 1,024-range figure, EXTRAPOLATED", output, StringComparison.Ordinal);
        Assert.Contains("bench functions ranges, a test (", output, StringComparison.Ordinal);
        Assert.Contains("222 µs (1,024 ranges, gross)", output, StringComparison.Ordinal);
    }

    [Fact]
    public void Run_Private_PricesTheEndpointsAndTheirDataOnTheirOwnLine()
    {
        var (publicCode, publicOutput, _) = Run(null, "--rate", "100000");
        var (code, output, _) = Run(null, "--rate", "100000", "--private");

        Assert.Equal(0, publicCode);
        Assert.Equal(0, code);
        Assert.DoesNotContain("Private Link", publicOutput, StringComparison.Ordinal);
        Assert.Contains("Private Link: 4 private endpoints", output, StringComparison.Ordinal);
        Assert.Contains("NETWORK_ISOLATION=private", output, StringComparison.Ordinal);
        Assert.Contains("PIPELINE_PROFILE=plan-100000-private", output, StringComparison.Ordinal);
        Assert.Contains("not of Functions + Storage + App Insights", output, StringComparison.Ordinal);
    }

    [Fact]
    public void Run_ExpiryWindows_PricesTheOlderWindowsAndChecksTheWindowsTarget()
    {
        var (code, output, _) = Run(null, "--rate", "100000", "--expiry", "windows");

        Assert.Equal(0, code);
        Assert.Contains("7-day retention by 1-day windows dropped whole", output, StringComparison.Ordinal);
        Assert.Contains("readings, 7 older windows of 1 d at 10,800 RU/s minimum", output, StringComparison.Ordinal);
        Assert.Contains("target: RU per reading <= 8 with window expiry: 31.00  MISSED", output, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(false, "100k.env", "./pipeline plan --rate 100000 --env-file infra/profiles/100k.env")]
    [InlineData(true, "100k-private.env", "./pipeline plan --rate 100000 --private --env-file infra/profiles/100k-private.env")]
    public void Profile_CheckedIn100k_WhatThePlanWritesToday(bool isPrivate, string file, string command)
    {
        var request = new Model.PlanRequest(100_000, 200, 100_000, 7, false, false, Private: isPrivate);
        var plan = Model.Planner.Plan(request, Repository.CheckedInDefaults(), Repository.Prices());

        var expected = ProfileSettings.Lines(plan, command);

        Assert.Equal(expected, File.ReadAllLines(Path.Combine(Repository.Root, "infra", "profiles", file)));
    }
}
