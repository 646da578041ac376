using Microsoft.Azure.Cosmos;

namespace SensorPipeline.LoadGen.Verify;

/// <summary>
/// The local stand-in answers a point read of a missing document with 500 instead of 404, unless the
/// request carries <c>x-ms-documentdb-query-enablecrosspartition: True</c> (a behaviour of the @vercel/cosmosdb-server stand-in).
/// Added to document GETs, for a loopback endpoint only, so "not there" reads as 404 and a real 500 stays an error.
/// </summary>
internal sealed class CrossPartitionReadHandler : RequestHandler
{
    public const string HeaderName = "x-ms-documentdb-query-enablecrosspartition";

    public override Task<ResponseMessage> SendAsync(RequestMessage request, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(request);
        if (request.Method == HttpMethod.Get && request.RequestUri?.OriginalString.Contains("/docs/", StringComparison.Ordinal) == true)
        {
            request.Headers.Set(HeaderName, "True");
        }

        return base.SendAsync(request, cancellationToken);
    }
}
