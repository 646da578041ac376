using Azure.Core;

namespace SensorPipeline.LoadGen.Sending;

/// <summary>A Microsoft Entra bearer token for Event Hubs (role Azure Event Hubs Data Sender), renewed five
/// minutes before it expires. One refresh at a time: concurrent senders wait for it instead of stampeding.</summary>
internal sealed class EntraAuthorization : IAuthorizationSource, IDisposable
{
    public const string Scope = "https://eventhubs.azure.net/.default";

    private static readonly TimeSpan RenewBefore = TimeSpan.FromMinutes(5);

    private readonly TokenCredential _credential;
    private readonly TimeProvider _time;
    private readonly SemaphoreSlim _refresh = new(1, 1);
    private volatile string? _header;
    private long _renewAtUtcTicks; // read without the lock: Volatile keeps the 64-bit value whole

    public EntraAuthorization(TokenCredential credential, TimeProvider time)
    {
        _credential = credential;
        _time = time;
    }

    public async ValueTask<string> GetAsync(CancellationToken cancellationToken)
    {
        if (_header is { } cached && _time.GetUtcNow().UtcTicks < Volatile.Read(ref _renewAtUtcTicks))
        {
            return cached;
        }

        await _refresh.WaitAsync(cancellationToken);
        try
        {
            if (_header is null || _time.GetUtcNow().UtcTicks >= Volatile.Read(ref _renewAtUtcTicks))
            {
                var token = await _credential.GetTokenAsync(new TokenRequestContext([Scope]), cancellationToken);
                Volatile.Write(ref _renewAtUtcTicks, (token.ExpiresOn - RenewBefore).UtcTicks);
                _header = "Bearer " + token.Token;
            }

            return _header;
        }
        finally
        {
            _refresh.Release();
        }
    }

    public void Dispose() => _refresh.Dispose();
}
