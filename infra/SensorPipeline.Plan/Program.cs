using SensorPipeline.Plan;

// ./pipeline plan: every capacity setting and its cost for a rate. Run from the repository root (./pipeline does).
return PlanCommand.Run(args, Directory.GetCurrentDirectory(), Environment.GetEnvironmentVariable, Console.Out, Console.Error);
