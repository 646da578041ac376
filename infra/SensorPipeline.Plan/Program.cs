using SensorPipeline.Plan;
using SensorPipeline.Plan.Data;
using SensorPipeline.Plan.Model;
using SensorPipeline.Plan.Output;

// ./pipeline plan: every capacity setting and its cost for a rate (run from the repository root).
try
{
    var root = Directory.GetCurrentDirectory();
    var arguments = PlanArguments.Parse(args, root);
    var book = PriceBook.Load(Path.Combine("infra", "prices"), arguments.Region);
    var costs = ReadingCosts.Load(
        Path.Combine("infra", "SensorPipeline.Plan", "per-reading.defaults.json"),
        Path.Combine(".pipeline", "bench-cost.json"));
    var request = new PlanRequest(arguments.Rate, arguments.ReadingsPerEvent, arguments.Devices ?? arguments.Rate,
        arguments.RetentionDays, arguments.Reserved, arguments.Zones);
    var plan = Planner.Plan(request, costs, book);
    var sensitivity = PlanReport.HostCpuSensitivityMicros.Select(us => Planner.Plan(request, costs.WithHostCpuMicros(us), book)).ToArray();
    PlanReport.Write(Console.Out, plan, sensitivity, book, costs);

    var command = "./pipeline plan " + string.Join(' ', args);
    if (arguments.EnvFile is not null || arguments.Azd)
    {
        if (plan.IsPlanOnly)
        {
            Console.Error.WriteLine($"plan: refusing to write an environment for a plan-only rate: {plan.EventHubs.PlanOnlyReason}");
            return 2;
        }

        var block = ProfileSettings.Lines(plan, command);
        if (arguments.EnvFile is not null)
        {
            Console.WriteLine($"wrote {AzdEnvironment.Write(arguments.EnvFile, block)}");
        }

        if (arguments.Azd)
        {
            var env = AzdEnvironment.ResolveEnvironmentName(root, Environment.GetEnvironmentVariable("AZURE_ENV_NAME"));
            var file = AzdEnvironment.Write(Path.Combine(root, ".azure", env, ".env"), block);
            Console.WriteLine($"wrote {Path.GetRelativePath(root, file)}: `azd up` deploys this profile (environment '{env}')");
        }
    }

    return 0;
}
catch (Exception e) when (e is ArgumentException or PlanDataException or System.Text.Json.JsonException or IOException)
{
    Console.Error.WriteLine($"plan: {e.Message}");
    return 1;
}
