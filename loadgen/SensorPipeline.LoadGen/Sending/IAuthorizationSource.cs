namespace SensorPipeline.LoadGen.Sending;

/// <summary>Supplies the Authorization header value for each send; implementations cache and renew.</summary>
internal interface IAuthorizationSource
{
    ValueTask<string> GetAsync(CancellationToken cancellationToken);
}
