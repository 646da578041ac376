using System.Net;
using Microsoft.AspNetCore.Http;

namespace SensorPipeline.Emulators.Common;

/// <summary>The guard in front of the emulators' admin and peek endpoints. They listen on loopback only, but a web page
/// open in the developer's browser can still reach them: a "simple" cross-origin request (a form POST, a GET without
/// custom headers) is sent without a CORS preflight, and DNS rebinding makes a hostile page same-origin with devhost.
/// So these endpoints require (1) a custom header — <see cref="HeaderName"/> for devhost — which a browser only sends
/// cross-origin after a preflight, which no emulator approves, and (2) a loopback <c>Host</c> (and <c>Origin</c>, when
/// sent), which a rebound hostile name is not (<see cref="RejectCrossSite"/>, also used alone where a custom header
/// cannot be asked for).</summary>
public static class AdminRequestGuard
{
    /// <summary>The header every admin and peek request carries, with the value <c>1</c>.</summary>
    public const string HeaderName = "X-DevHost-Admin";

    /// <summary>Why the request is refused (HTTP 403), or null when it may go on.</summary>
    public static string? Reject(HttpRequest request)
    {
        ArgumentNullException.ThrowIfNull(request);
        if (RejectCrossSite(request) is { } reason)
        {
            return reason;
        }

        return request.Headers[HeaderName] == "1"
            ? null
            : $"Send the header '{HeaderName}: 1' (a browser cannot add it to a cross-site request without a preflight, which devhost refuses).";
    }

    /// <summary>Why a request that may come from another site is refused (HTTP 403) — a <c>Host</c> that is not a
    /// loopback name (DNS rebinding) or an <c>Origin</c> that is not a loopback page — or null.</summary>
    public static string? RejectCrossSite(HttpRequest request)
    {
        ArgumentNullException.ThrowIfNull(request);
        if (!IsLoopback(request.Host.Host))
        {
            return $"Host '{request.Host}' is not a loopback name: this endpoint answers only requests addressed to localhost, 127.0.0.1 or [::1].";
        }

        var origin = request.Headers.Origin.ToString();
        return origin.Length > 0 && !(Uri.TryCreate(origin, UriKind.Absolute, out var uri) && IsLoopback(uri.Host))
            ? $"Origin '{origin}' is not a loopback page."
            : null;
    }

    /// <summary>An endpoint filter for minimal-API admin endpoints: 403 with the reason, else the endpoint runs.</summary>
    public static async ValueTask<object?> Filter(EndpointFilterInvocationContext context, EndpointFilterDelegate next)
    {
        ArgumentNullException.ThrowIfNull(context);
        ArgumentNullException.ThrowIfNull(next);
        return Reject(context.HttpContext.Request) is { } reason
            ? Results.Problem(statusCode: StatusCodes.Status403Forbidden, title: "Forbidden", detail: reason)
            : await next(context);
    }

    private static bool IsLoopback(string host) =>
        string.Equals(host, "localhost", StringComparison.OrdinalIgnoreCase)
        || (IPAddress.TryParse(host.Trim('[', ']'), out var address) && IPAddress.IsLoopback(address));
}
