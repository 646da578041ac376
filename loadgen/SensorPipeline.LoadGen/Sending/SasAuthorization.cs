using SensorPipeline.Clients;

namespace SensorPipeline.LoadGen.Sending;

/// <summary>A SAS token for the hub, renewed well before it expires so no send carries an expired one.</summary>
internal sealed class SasAuthorization : IAuthorizationSource
{
    /// <summary>Token lifetime; renewed at half-life.</summary>
    public static readonly TimeSpan Lifetime = TimeSpan.FromHours(1);

    private readonly string _resourceUri;
    private readonly string _keyName;
    private readonly string _key;
    private readonly TimeProvider _time;
    private readonly Lock _gate = new();
    private string? _token;
    private DateTimeOffset _renewAt;

    public SasAuthorization(string resourceUri, string keyName, string key, TimeProvider time)
    {
        _resourceUri = resourceUri;
        _keyName = keyName;
        _key = key;
        _time = time;
    }

    public ValueTask<string> GetAsync(CancellationToken cancellationToken)
    {
        var now = _time.GetUtcNow();
        lock (_gate)
        {
            if (_token is null || now >= _renewAt)
            {
                _token = SharedAccessSignature.Create(_resourceUri, _keyName, _key, now + Lifetime);
                _renewAt = now + Lifetime / 2;
            }

            return ValueTask.FromResult(_token);
        }
    }
}
