using Microsoft.Extensions.Logging;
using SensorPipeline.Functions.Endpoints;
using SensorPipeline.Functions.Invocation;
using SensorPipeline.Functions.Storage;

namespace SensorPipeline.Functions.Tests;

/// <summary>The handler's one exception classifier, one test per branch (a pure unit).</summary>
[Trait("Category", "Fast")]
public sealed class InvocationFailuresTests
{
    [Fact]
    public void Classify_InvalidInvocation_Error400()
    {
        Assert.Equal(new InvocationFailure(LogLevel.Error, "invalid-request", 400, Systemic: true), InvocationFailures.Classify(new InvalidInvocationException("x"), hostCancelled: false));
    }

    [Fact]
    public void Classify_RequestTooLarge_Error413Systemic()
    {
        Assert.Equal(new InvocationFailure(LogLevel.Error, "request-too-large", 413, Systemic: true), InvocationFailures.Classify(new RequestTooLargeException(30, 20, 2), hostCancelled: false));
    }

    [Fact]
    public void Classify_StoreRefusesAKnownGoodWriteToo_Error500Systemic()
    {
        var failure = InvocationFailures.Classify(new StoreUnavailableException("refused") { Fault = StoreFault.Systemic }, hostCancelled: false);

        Assert.Equal(new InvocationFailure(LogLevel.Error, "systemic", 500, Systemic: true), failure);
    }

    [Fact]
    public void Classify_StoreUnavailable_Information500()
    {
        var failure = InvocationFailures.Classify(new StoreUnavailableException("upsert", HttpStatusCode.ServiceUnavailable, 7, null), hostCancelled: false);

        Assert.Equal(new InvocationFailure(LogLevel.Information, "store-unavailable", 500), failure);
    }

    [Fact]
    public void Classify_CancelledByTheHost_InformationAndAborted()
    {
        Assert.Equal(new InvocationFailure(LogLevel.Information, "cancelled", null), InvocationFailures.Classify(new OperationCanceledException(), hostCancelled: true));
    }

    [Fact]
    public void Classify_CancelledButNotByTheHost_Error500()
    {
        Assert.Equal(new InvocationFailure(LogLevel.Error, "unhandled", 500), InvocationFailures.Classify(new OperationCanceledException(), hostCancelled: false));
    }

    [Fact]
    public void Classify_AnythingElse_Error500()
    {
        Assert.Equal(new InvocationFailure(LogLevel.Error, "unhandled", 500), InvocationFailures.Classify(new InvalidOperationException(), hostCancelled: false));
    }

    [Fact]
    public void Classify_SingleInnerAggregate_IsUnwrapped()
    {
        var wrapped = new AggregateException(new AggregateException(new StoreUnavailableException("patch", HttpStatusCode.TooManyRequests, 7, null)));

        Assert.Equal("store-unavailable", InvocationFailures.Classify(wrapped, hostCancelled: false).Kind);
        Assert.IsType<StoreUnavailableException>(InvocationFailures.Unwrap(wrapped));
    }

    [Fact]
    public void Classify_AggregateOfSeveral_IsNotUnwrapped()
    {
        var several = new AggregateException(new InvalidInvocationException("a"), new InvalidInvocationException("b"));

        Assert.Equal("unhandled", InvocationFailures.Classify(several, hostCancelled: false).Kind);
    }
}
