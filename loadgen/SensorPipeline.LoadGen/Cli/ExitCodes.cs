namespace SensorPipeline.LoadGen.Cli;

/// <summary>loadgen's exit codes (scripts and the demo branch on them).</summary>
internal static class ExitCodes
{
    /// <summary>Everything sent / verified.</summary>
    public const int Ok = 0;

    /// <summary>send: an event failed permanently or a pause call failed; verify: readings missing or duplicated,
    /// or an injected event not dead-lettered.</summary>
    public const int Failed = 1;

    /// <summary>Bad options: nothing was sent or read.</summary>
    public const int BadArguments = 2;

    /// <summary>verify: Cosmos DB could not answer (an error, not a miss), so there is no verdict.</summary>
    public const int Unverifiable = 3;

    /// <summary>Interrupted (Ctrl+C); the ledger covers what was acknowledged.</summary>
    public const int Interrupted = 130;
}
