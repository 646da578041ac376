using System.CommandLine;
using SensorPipeline.CommandLine;
using SensorPipeline.Plan.Model;
using SensorPipeline.Plan.Output;

namespace SensorPipeline.Plan;

/// <summary>
/// <c>./pipeline plan</c>: prints the plan for a rate and, with --azd or --env-file, writes its settings. Exit codes
/// (<see cref="ExitCodes"/>): 0 done, 1 bad data (a price file, bench-cost.json), 2 a wrong command line, 4 an
/// environment asked for a plan-only rate (the plan printed, nothing written).
/// </summary>
internal static class PlanCommand
{
    public static int Run(IReadOnlyList<string> args, string root, Func<string, string?> environment, TextWriter output, TextWriter error) =>
        CommandLineProgram.Run("plan", PlanArguments.Create(arguments => Plan(arguments, root, environment, output, error), args), args,
            new InvocationConfiguration { Output = output, Error = error });

    private static int Plan(PlanArguments arguments, string root, Func<string, string?> environment, TextWriter output, TextWriter error)
    {
        if (arguments.Expiry == Expiry.Windows && (arguments.Azd || arguments.EnvFile is not null))
        {
            error.WriteLine("plan: --expiry windows is plan-only: the template deploys one readings container with TTL (docs/cost.md, \"Expiry\", says why); --azd and --env-file take --expiry ttl.");
            return ExitCodes.Usage;
        }

        try
        {
            var book = PriceBook.Load(Path.Combine(root, "infra", "prices"), arguments.Region);
            var costs = ReadingCosts.Load(
                Path.Combine(root, "infra", "SensorPipeline.Plan", "per-reading.defaults.json"),
                Path.Combine(root, ".pipeline", "bench-cost.json"))
                .WithRanges(RangeCpu.Load(Path.Combine(root, "infra", "SensorPipeline.Plan", "ranges.defaults.json"), Path.Combine(root, ".pipeline", "bench-ranges.json")));
            var request = new PlanRequest(arguments.Rate, arguments.ReadingsPerEvent, arguments.Devices ?? arguments.Rate,
                arguments.RetentionDays, arguments.Reserved, arguments.Zones, arguments.Expiry, arguments.WindowDays, arguments.Private);
            var plan = Planner.Plan(request, costs, book);
            PlanReport.Write(output, plan, Sensitivity.Of(request, costs, book), book);
            return arguments.EnvFile is null && !arguments.Azd ? 0 : WriteSettings(arguments, plan, root, environment, output, error);
        }
        catch (Exception e) when (e is ArgumentException or PlanDataException or System.Text.Json.JsonException or IOException)
        {
            error.WriteLine($"plan: {e.Message}");
            return ExitCodes.Failed;
        }
    }

    private static int WriteSettings(PlanArguments arguments, PlanResult plan, string root, Func<string, string?> environment, TextWriter output, TextWriter error)
    {
        if (plan.IsPlanOnly)
        {
            error.WriteLine($"plan: no environment written: {plan.Request.Rate:N0} readings/s is plan-only. {plan.EventHubs.PlanOnlyReason}");
            return ExitCodes.PlanOnly;
        }

        var block = ProfileSettings.Lines(plan, arguments.Command);
        if (arguments.EnvFile is not null)
        {
            output.WriteLine($"wrote {Path.GetRelativePath(root, AzdEnvironment.Write(Path.Combine(root, arguments.EnvFile), block))}");
        }

        if (arguments.Azd)
        {
            var env = AzdEnvironment.ResolveEnvironmentName(root, environment("AZURE_ENV_NAME"));
            var file = AzdEnvironment.Write(Path.Combine(root, ".azure", env, ".env"), block);
            output.WriteLine($"wrote {Path.GetRelativePath(root, file)}: `azd up` deploys this profile (environment '{env}')");
        }

        return 0;
    }
}
