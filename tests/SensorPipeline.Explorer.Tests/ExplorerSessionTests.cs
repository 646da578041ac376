using Microsoft.AspNetCore.Http;

namespace SensorPipeline.Explorer.Tests;

/// <summary>The explorer's guard, in-process: actions need devhost's own origin and the session's token; reads a
/// loopback Host and Origin.</summary>
public sealed class ExplorerSessionTests
{
    private readonly ExplorerSession _session = new();

    private static HttpRequest Request(string host, string? origin, string? token)
    {
        var context = new DefaultHttpContext();
        context.Request.Method = "POST";
        context.Request.Scheme = "http";
        context.Request.Host = new HostString(host);
        if (origin is not null)
        {
            context.Request.Headers.Origin = origin;
        }

        if (token is not null)
        {
            context.Request.Headers[ExplorerSession.TokenHeader] = token;
        }

        return context.Request;
    }

    [Fact]
    public void RejectAction_OwnOriginAndToken_Accepted()
    {
        Assert.Null(_session.RejectAction(Request("127.0.0.1:7071", "http://127.0.0.1:7071", _session.Token)));
        Assert.Null(_session.RejectAction(Request("localhost:7071", null, _session.Token)));
    }

    [Fact]
    public void RejectAction_CrossSiteOrigin_Refused()
    {
        var reason = _session.RejectAction(Request("127.0.0.1:7071", "https://attacker.example", _session.Token));

        Assert.Contains("attacker.example", reason, StringComparison.Ordinal);
    }

    [Fact]
    public void RejectAction_AnotherLoopbackOrigin_Refused()
    {
        Assert.NotNull(_session.RejectAction(Request("127.0.0.1:7071", "http://127.0.0.1:3000", _session.Token)));
    }

    [Fact]
    public void RejectAction_NoOrWrongToken_Refused()
    {
        Assert.Contains(ExplorerSession.TokenHeader, _session.RejectAction(Request("127.0.0.1:7071", "http://127.0.0.1:7071", null)), StringComparison.Ordinal);
        Assert.NotNull(_session.RejectAction(Request("127.0.0.1:7071", null, new ExplorerSession().Token)));
        Assert.NotNull(_session.RejectAction(Request("127.0.0.1:7071", null, "")));
    }

    [Fact]
    public void RejectAction_ReboundHostName_Refused()
    {
        Assert.Contains("loopback", _session.RejectAction(Request("attacker.example:7071", null, _session.Token)), StringComparison.Ordinal);
        Assert.NotNull(ExplorerSession.RejectRead(Request("attacker.example:7071", null, null)));
    }
}
