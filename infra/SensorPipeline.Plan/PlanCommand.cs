using SensorPipeline.Plan.Model;
using SensorPipeline.Plan.Output;

namespace SensorPipeline.Plan;

/// <summary>
/// <c>./pipeline plan</c>: prints the plan for a rate and, with --azd or --env-file, writes its settings. Exit codes:
/// 0 done, 1 bad arguments or data, 2 an environment asked for a plan-only rate (nothing written).
/// </summary>
internal static class PlanCommand
{
    public static int Run(IReadOnlyList<string> args, string root, Func<string, string?> environment, TextWriter output, TextWriter error)
    {
        try
        {
            var arguments = PlanArguments.Parse(args);
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
            return 1;
        }
    }

    private static int WriteSettings(PlanArguments arguments, PlanResult plan, string root, Func<string, string?> environment, TextWriter output, TextWriter error)
    {
        if (plan.IsPlanOnly)
        {
            error.WriteLine($"plan: no environment written: {plan.Request.Rate:N0} readings/s is plan-only. {plan.EventHubs.PlanOnlyReason}");
            return 2;
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
