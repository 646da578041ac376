using System.Text;
using SensorPipeline.Fuzz.Targets;
using SensorPipeline.Toolkit;

namespace SensorPipeline.Fuzz.Tests;

/// <summary>The <c>amqp-session</c> seed inputs reach where they are meant to: past the Open into an authorized
/// session (a put-token accepted, an event appended and delivered to a receiver with credit, <c>$management</c>
/// answered, owner levels displacing receivers). A seed that stopped at the first frame would fuzz nothing deeper.</summary>
[Trait("Category", "Fast")]
public sealed class AmqpSessionTargetTests
{
    private static readonly string Corpus = Path.Combine(RepoLayout.Current.Root, "tests", "SensorPipeline.Fuzz", "corpus", "amqp-session");

    private static string AnswerTo(string input) =>
        Encoding.Latin1.GetString(AmqpSessionTarget.Exchange(File.ReadAllBytes(Path.Combine(Corpus, "seed-" + input))));

    [Fact]
    public void Exchange_PutTokenSeed_AcceptsTheTokenTheSenderAndTheReceiver()
    {
        var answer = AnswerTo("put-token-send-receive");

        Assert.Contains("put-token-1", answer, StringComparison.Ordinal); // the $cbs reply's correlation-id
        Assert.Contains("Accepted", answer, StringComparison.Ordinal); // its status-description (202)
        Assert.Contains("seismic/Partitions/1", answer, StringComparison.Ordinal); // the sender's attach answered
        Assert.Contains("seismic/ConsumerGroups/$Default/Partitions/1", answer, StringComparison.Ordinal); // the receiver's
        Assert.DoesNotContain("amqp:unauthorized-access", answer, StringComparison.Ordinal);
        Assert.DoesNotContain("amqp:not-found", answer, StringComparison.Ordinal);
    }

    [Fact]
    public void Exchange_ManagementSeed_AnswersTheHubAndThePartition()
    {
        var answer = AnswerTo("management-read");

        Assert.Contains("partition_ids", answer, StringComparison.Ordinal);
        Assert.Contains("last_enqueued_sequence_number", answer, StringComparison.Ordinal);
    }

    [Fact]
    public void Exchange_OwnerLevelSeed_StealsTheLowerOwnerAndRefusesTheReceiverWithout()
    {
        var answer = AnswerTo("owner-levels");

        Assert.True(answer.Split("amqp:link:stolen").Length - 1 >= 2, "expected the epoch-1 receiver displaced and the one without an owner level refused");
    }

    [Fact]
    public void Exchange_BadFrameAfterOpen_ClosedWithoutInternalError()
    {
        var answer = Encoding.Latin1.GetString(AmqpSessionTarget.Exchange([0x00, 0x00, 0x00, 0x0C, 0x02, 0x00, 0x00, 0x00, 0x00, 0x53, 0x11, 0xFF]));

        Assert.DoesNotContain("amqp:internal-error", answer, StringComparison.Ordinal);
        Assert.Contains("amqp:", answer, StringComparison.Ordinal); // a protocol error named on the close
    }
}
