using System.Net.Security;
using Azure.Core;
using Microsoft.Azure.Cosmos;

namespace SensorPipeline.Clients;

/// <summary>Creates a <see cref="CosmosClient"/> (one per process and account: it pools connections).</summary>
public static class CosmosClients
{
    /// <summary>
    /// A client in Gateway mode (one HTTPS endpoint; the only mode the local emulator serves), with
    /// <paramref name="options"/> for the rest. Authenticated by <paramref name="key"/> when given, else by
    /// <paramref name="credential"/>. For a loopback endpoint only, as the SDK's emulator guidance says: the emulator's
    /// self-signed certificate is accepted when it is the only fault (the host name must still match), only the given
    /// endpoint is dialled, and the key defaults to <see cref="CosmosEmulatorAccount.Key"/>.
    /// </summary>
    public static CosmosClient Create(Uri endpoint, CosmosClientOptions? options = null, string? key = null, TokenCredential? credential = null)
    {
        ArgumentNullException.ThrowIfNull(endpoint);
        options ??= new CosmosClientOptions();
        options.ConnectionMode = ConnectionMode.Gateway;
        if (endpoint.IsLoopback)
        {
            options.LimitToEndpoint = true;
            if (options.HttpClientFactory is null)
            {
                options.ServerCertificateCustomValidationCallback = static (_, _, errors) => IsEmulatorCertificate(errors);
            }

            key ??= credential is null ? CosmosEmulatorAccount.Key : null;
        }

        if (key is not null)
        {
            return new CosmosClient(endpoint.AbsoluteUri, key, options);
        }

        return new CosmosClient(endpoint.AbsoluteUri, credential ?? throw new ArgumentException(
            "A Cosmos DB account on " + endpoint.Host + " needs a key or a token credential.", nameof(credential)), options);
    }

    /// <summary>
    /// An HTTP handler for a program's own HTTPS calls to a loopback Cosmos DB emulator (its <c>/_emulator</c> admin
    /// endpoints, raw REST requests), with the same concession as <see cref="Create"/>'s clients: the emulator's
    /// self-signed certificate is accepted when it is the only fault, and only for a loopback request.
    /// </summary>
    public static HttpClientHandler LoopbackEmulatorHandler() => new()
    {
        ServerCertificateCustomValidationCallback = static (request, _, _, errors) =>
            request.RequestUri is { IsLoopback: true } && IsEmulatorCertificate(errors),
    };

    /// <summary>A client of a loopback emulator's admin API at <paramref name="endpoint"/> (<c>/_emulator/…</c>: faults,
    /// the RU budget, the charge ledger): <see cref="CosmosEmulatorAccount.AdminHeader"/> on every request, the
    /// emulator's certificate accepted as by <see cref="LoopbackEmulatorHandler"/>.</summary>
    public static HttpClient EmulatorAdminClient(Uri endpoint)
    {
        var client = new HttpClient(LoopbackEmulatorHandler()) { BaseAddress = endpoint };
        client.DefaultRequestHeaders.Add(CosmosEmulatorAccount.AdminHeader, "1");
        return client;
    }

    // Self-signed, so its chain does not build; the host name must still match.
    private static bool IsEmulatorCertificate(SslPolicyErrors errors) =>
        errors is SslPolicyErrors.None or SslPolicyErrors.RemoteCertificateChainErrors;
}
