namespace SensorPipeline.CommandLine;

/// <summary>The exit codes of every program of the repository; scripts and the stack branch on them.</summary>
public static class ExitCodes
{
    /// <summary>Done: everything asked for was done and passed.</summary>
    public const int Ok = 0;

    /// <summary>Failed: the run went wrong or judged something wrong (a reading lost, a child died, a bad data file).</summary>
    public const int Failed = 1;

    /// <summary>Usage: the command line is wrong (an unknown option, a bad or missing value); nothing was run.</summary>
    public const int Usage = 2;

    /// <summary>No verdict: <c>loadgen verify</c> could not read the store (an error, not a miss).</summary>
    public const int NoVerdict = 3;

    /// <summary>Plan-only: <c>plan --azd</c> or <c>--env-file</c> at a rate the template does not deploy; the plan was
    /// printed and nothing was written.</summary>
    public const int PlanOnly = 4;

    /// <summary>Interrupted (Ctrl+C or SIGTERM), as a shell reports SIGINT.</summary>
    public const int Interrupted = 130;
}
