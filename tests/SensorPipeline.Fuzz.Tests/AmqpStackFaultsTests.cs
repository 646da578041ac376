using System.Reflection;
using Microsoft.Azure.Amqp;
using SensorPipeline.Fuzz.Targets;

namespace SensorPipeline.Fuzz.Tests;

/// <summary>Which exceptions caught by Microsoft.Azure.Amqp's frame handling the <c>amqp-session</c> target counts as
/// devhost's faults, decided from the stack the exception was thrown on (deepest frame first).</summary>
[Trait("Category", "Fast")]
public sealed class AmqpStackFaultsTests
{
    private static readonly MethodBase LinkProcessFrame = typeof(AmqpLink).GetMethod(nameof(AmqpLink.ProcessFrame))!;
    private static readonly MethodBase SessionProcessFrame = typeof(AmqpSession).GetMethod(nameof(AmqpSession.ProcessFrame))!;
    private static readonly MethodBase LibraryThrow = typeof(AmqpObject).GetMethod("ThrowIfClosed", BindingFlags.Instance | BindingFlags.NonPublic)!;
    private static readonly MethodBase LibraryDispose = typeof(ReceivingAmqpLink).GetMethod(nameof(ReceivingAmqpLink.DisposeMessage), [typeof(AmqpMessage), typeof(Microsoft.Azure.Amqp.Framing.Outcome), typeof(bool), typeof(bool)])!;
    private static readonly MethodBase DevhostListener = typeof(AmqpSessionTarget).Assembly.GetReferencedAssemblies()
        .Select(Assembly.Load).Single(a => a.GetName().Name == "SensorPipeline.EventHubs")
        .GetType("SensorPipeline.EventHubs.Amqp.RequestNode")!.GetMethod("OnRequest", BindingFlags.Instance | BindingFlags.NonPublic)!;
    private static readonly MethodBase DevhostTransport = typeof(AmqpSessionTarget).Assembly.GetReferencedAssemblies()
        .Select(Assembly.Load).Single(a => a.GetName().Name == "SensorPipeline.EventHubs")
        .GetType("SensorPipeline.EventHubs.Amqp.PipeTransport")!.GetMethods(BindingFlags.Instance | BindingFlags.Public | BindingFlags.DeclaredOnly)[0];

    [Fact]
    public void IsFault_LibraryThrowsFromACallByDevhostsListener_Fault()
    {
        // "Object 'receiverN' is closed": devhost's request listener disposed a message on a link that was closing.
        var frames = new[] { LibraryThrow, LibraryDispose, DevhostListener, LinkProcessFrame, DevhostTransport };

        Assert.True(AmqpStackFaults.IsFault(frames, new AmqpException(AmqpErrorCode.IllegalState, "Object 'receiver1' is closed.")));
    }

    [Fact]
    public void IsFault_DevhostThrowsAnUnexpectedExceptionInItsListener_Fault()
    {
        var frames = new[] { DevhostListener, LinkProcessFrame, DevhostTransport };

        Assert.True(AmqpStackFaults.IsFault(frames, new InvalidOperationException("not expected")));
    }

    [Fact]
    public void IsFault_DevhostRefusesWithAnAmqpExceptionItThrowsItself_NotAFault()
    {
        var frames = new[] { DevhostListener, SessionProcessFrame, DevhostTransport };

        Assert.False(AmqpStackFaults.IsFault(frames, new AmqpException(AmqpErrorCode.NotAllowed, "refused")));
    }

    [Fact]
    public void IsFault_LibraryRejectsThePeersFrameWithNoDevhostCodeBetween_NotAFault()
    {
        // devhost's transport is below the library's frame handling on every frame: only what is above it counts.
        var frames = new[] { LibraryThrow, LinkProcessFrame, DevhostTransport };

        Assert.False(AmqpStackFaults.IsFault(frames, new AmqpException(AmqpErrorCode.IllegalState, "Object 'sender1' is closed.")));
    }

    [Fact]
    public void IsFault_ThrownOutsideTheLibrarysFrameHandling_NotAFault()
    {
        var frames = new[] { LibraryThrow, LibraryDispose, DevhostListener, DevhostTransport };

        Assert.False(AmqpStackFaults.IsFault(frames, new InvalidOperationException("caught by devhost, not by the stack")));
    }
}
