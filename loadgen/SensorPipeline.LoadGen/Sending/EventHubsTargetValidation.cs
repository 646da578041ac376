namespace SensorPipeline.LoadGen.Sending;

/// <summary>The start-up check of where a command sends events (a connection string or a namespace), the same for
/// <c>loadgen</c> and <c>loadgen redrive</c>; each message names the option.</summary>
internal static class EventHubsTargetValidation
{
    /// <summary>Adds a failure to <paramref name="failures"/> unless exactly one of <paramref name="connection"/> (a
    /// valid connection string) and <paramref name="ns"/> (a host name) is given; <paramref name="needed"/> says what
    /// the target is needed for when both are missing.</summary>
    public static void Check(string? connection, string? ns, List<string> failures, string needed)
    {
        ArgumentNullException.ThrowIfNull(failures);
        if (connection is null && ns is null)
        {
            failures.Add($"--connection (or env EventHubConnection) or --namespace is required: {needed}.");
        }
        else if (connection is not null && ns is not null)
        {
            failures.Add("give --connection (SAS key) or --namespace (Microsoft Entra), not both.");
        }
        else if (connection is not null)
        {
            try
            {
                _ = EventHubsConnection.Parse(connection);
            }
            catch (FormatException e)
            {
                failures.Add("--connection / EventHubConnection: " + e.Message);
            }
        }
        else if (Uri.CheckHostName(ns) == UriHostNameType.Unknown)
        {
            failures.Add($"--namespace: '{ns}' is not a host name (expected <ns>.servicebus.windows.net).");
        }
    }
}
