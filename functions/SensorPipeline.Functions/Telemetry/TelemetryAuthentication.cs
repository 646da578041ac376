namespace SensorPipeline.Functions.Telemetry;

/// <summary>
/// Parses <c>APPLICATIONINSIGHTS_AUTHENTICATION_STRING</c> (<c>Authorization=AAD;ClientId=&lt;guid&gt;</c>), the same
/// format the Functions host reads, so one app setting configures both.
/// </summary>
internal static class TelemetryAuthentication
{
    /// <summary>True when the value asks for Entra ID; <paramref name="clientId"/> is the user-assigned identity's
    /// client id, or null for the system-assigned identity.</summary>
    public static bool TryParse(string value, out string? clientId, out string? error)
    {
        ArgumentNullException.ThrowIfNull(value);
        clientId = null;
        error = null;
        var aad = false;
        foreach (var part in value.Split(';', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries))
        {
            var eq = part.IndexOf('=', StringComparison.Ordinal);
            if (eq <= 0)
            {
                error = $"'{part}' is not key=value; expected Authorization=AAD;ClientId=<guid>.";
                return false;
            }

            var key = part[..eq].Trim();
            var text = part[(eq + 1)..].Trim();
            if (key.Equals("Authorization", StringComparison.OrdinalIgnoreCase))
            {
                aad = text.Equals("AAD", StringComparison.OrdinalIgnoreCase);
                if (!aad)
                {
                    error = $"Authorization must be AAD, found '{text}'.";
                    return false;
                }
            }
            else if (key.Equals("ClientId", StringComparison.OrdinalIgnoreCase))
            {
                if (!Guid.TryParse(text, out _))
                {
                    error = $"ClientId must be a GUID, found '{text}'.";
                    return false;
                }

                clientId = text;
            }
            else
            {
                error = $"unknown key '{key}'; expected Authorization=AAD;ClientId=<guid>.";
                return false;
            }
        }

        if (!aad)
        {
            clientId = null;
            error = "Authorization=AAD is missing.";
            return false;
        }

        return true;
    }
}
