namespace SensorPipeline.LoadGen.Sending;

/// <summary>
/// An Event Hubs connection string, reduced to what the REST send API needs: the HTTP base address and
/// the shared access key. The emulator form (<c>UseDevelopmentEmulator=true</c>) sends to
/// <c>http://host:port</c>; a real namespace to <c>https://&lt;ns&gt;.servicebus.windows.net</c>.
/// </summary>
/// <param name="BaseAddress">Where the REST API lives, without a trailing slash.</param>
/// <param name="KeyName">SharedAccessKeyName.</param>
/// <param name="Key">SharedAccessKey.</param>
/// <param name="EntityPath">The hub named in the connection string, when it names one.</param>
internal sealed record EventHubsConnection(Uri BaseAddress, string KeyName, string Key, string? EntityPath)
{
    /// <summary>Parses <paramref name="connectionString"/>; throws <see cref="FormatException"/> naming what is wrong
    /// (never echoing the key).</summary>
    public static EventHubsConnection Parse(string connectionString)
    {
        ArgumentNullException.ThrowIfNull(connectionString);
        var parts = new Dictionary<string, string>(StringComparer.OrdinalIgnoreCase);
        foreach (var part in connectionString.Split(';', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries))
        {
            var eq = part.IndexOf('=', StringComparison.Ordinal);
            if (eq <= 0)
            {
                throw new FormatException($"the connection string has a part without '=' (near '{part[..Math.Min(part.Length, 12)]}').");
            }

            parts[part[..eq].Trim()] = part[(eq + 1)..].Trim();
        }

        if (!parts.TryGetValue("Endpoint", out var endpoint) || !Uri.TryCreate(endpoint, UriKind.Absolute, out var endpointUri))
        {
            throw new FormatException("the connection string needs Endpoint=sb://<host>[:port]/.");
        }

        if (!parts.TryGetValue("SharedAccessKeyName", out var keyName) || keyName.Length == 0
            || !parts.TryGetValue("SharedAccessKey", out var key) || key.Length == 0)
        {
            throw new FormatException("the connection string needs SharedAccessKeyName and SharedAccessKey (for Microsoft Entra use --namespace without a key).");
        }

        var emulator = parts.TryGetValue("UseDevelopmentEmulator", out var flag) && bool.TryParse(flag, out var on) && on;
        // The emulator speaks plain HTTP on the port the connection string names; Azure speaks HTTPS on 443.
        var builder = emulator
            ? new UriBuilder(Uri.UriSchemeHttp, endpointUri.Host, endpointUri.IsDefaultPort ? 80 : endpointUri.Port)
            : new UriBuilder(Uri.UriSchemeHttps, endpointUri.Host);
        var baseAddress = new Uri(builder.Uri.GetLeftPart(UriPartial.Authority));
        parts.TryGetValue("EntityPath", out var entityPath);
        return new EventHubsConnection(baseAddress, keyName, key, string.IsNullOrEmpty(entityPath) ? null : entityPath);
    }
}
