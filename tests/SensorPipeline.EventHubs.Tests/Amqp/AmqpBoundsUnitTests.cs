using Microsoft.Azure.Amqp;
using Microsoft.Azure.Amqp.Framing;
using SensorPipeline.EventHubs.Amqp;

namespace SensorPipeline.EventHubs.Tests.Amqp;

/// <summary>The AMQP endpoint's bounds in process: the nesting scan against what Microsoft.Azure.Amqp encodes, the
/// owner of a partition whose link closed before it joined, the send loop of a receiver whose link closed before it
/// started, and the options' ranges.</summary>
[Trait("Category", "Fast")]
public sealed class AmqpBoundsUnitTests
{
    [Fact]
    public void CheckSections_WhatTheStackEncodes_Passes()
    {
        using var message = AmqpMessage.Create(new Data { Value = new ArraySegment<byte>([1, 2, 3]) });
        message.ApplicationProperties.Map["when"] = new Microsoft.Azure.Amqp.Encoding.DescribedType(new Microsoft.Azure.Amqp.Encoding.AmqpSymbol("com.microsoft:datetime-offset"), 5L);
        message.ApplicationProperties.Map["ids"] = new[] { 1L, 2L, 3L };
        message.ApplicationProperties.Map["names"] = new[] { "a", "bc" };
        message.Properties.MessageId = "m";
        message.MessageAnnotations.Map["x-opt-partition-key"] = "k";
        var bytes = Bytes(message);

        Assert.Null(AmqpNesting.CheckSections(bytes, 4));
    }

    [Fact]
    public void CheckSections_NestedPastTheLimit_NamesTheSetting()
    {
        var bytes = RawAmqp.NestedValueSection(64);
        Assert.Null(AmqpNesting.CheckSections(bytes, 65)); // the section and 64 levels under it
        Assert.Contains("MaxNestingDepth", AmqpNesting.CheckSections(bytes, 64), StringComparison.Ordinal);
        Assert.Contains("MaxNestingDepth", AmqpNesting.CheckSections(RawAmqp.NestedValueSection(1_000_000), 64), StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(new byte[] { 0xC0, 0x03, 0x01, 0x40, 0x40 }, "size")] // list8 whose size says 3 bytes, items take 2
    [InlineData(new byte[] { 0xC0, 0x02, 0x05, 0x40 }, "count")] // count above size: the decoder would allocate by count
    [InlineData(new byte[] { 0xD0, 0x7F, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x01 }, "past")] // size past the end
    [InlineData(new byte[] { 0xE0, 0x03, 0x02, 0xC0, 0x01, 0x00 }, "0xC0")] // an array of lists
    [InlineData(new byte[] { 0xB1, 0x00, 0x00, 0x10, 0x00, 0x41 }, "past")] // a string longer than the bytes
    [InlineData(new byte[] { 0x00, 0x53, 0x77 }, "ends inside")] // a described value without its value
    [InlineData(new byte[] { 0x1F, 0x00 }, "Unknown format code")]
    public void CheckSections_BytesTheDecoderCouldReadOtherwise_Refused(byte[] bytes, string why)
    {
        Assert.Contains(why, AmqpNesting.CheckSections(bytes, 64), StringComparison.Ordinal);
    }

    [Fact]
    public void Join_LinkClosedBeforeItJoined_LeavesNoOwner()
    {
        var owners = new OwnerLevels();
        var gone = Link("gone");
        gone.Abort(); // detached while its attach was still resolving its start position
        owners.Join("ingestion/$Default/0", gone, long.MaxValue);

        var next = Link("next");
        owners.Join("ingestion/$Default/0", next, null); // refused with link:stolen while the closed link stays owner
        Assert.Equal(AmqpObjectState.Start, next.State);
    }

    [Fact]
    public async Task Start_LinkClosedBeforeItStarted_SendLoopEndsAtOnce()
    {
        using var dir = new TempDirectory();
        await using var eventHubs = EventHubsNamespace.Open(TestData.Config, dir.Path, new EventLogOptions(), TimeProvider.System);
        var gone = Link("gone");
        gone.Abort(); // detached while its attach was still resolving its start position: Closed already fired
        var address = EntityAddress.Parse("hub/ConsumerGroups/$Default/Partitions/0")!;
        var outgoing = new OutgoingEvents(eventHubs, address, gone, new LinkAuthorization(new ConnectionState(), address.Path, SensorPipeline.EventHubs.Http.SasRights.Listen, TimeProvider.System),
            maxBatch: 10, TimeProvider.System, Microsoft.Extensions.Logging.Abstractions.NullLogger.Instance);

        outgoing.Start(0);

        // Without the state check the loop waited for credit the closed link never grants, holding its task for good.
        await outgoing.Sending.WaitAsync(AmqpPeer.Timeout);
    }

    [Fact]
    public void Validate_NewBoundsOutOfRange_NameTheKey()
    {
        Assert.True(new AmqpOptionsValidator().Validate(null, new AmqpOptions()).Succeeded);
        var result = new AmqpOptionsValidator().Validate(null, new AmqpOptions
        {
            MaxFrameSize = 128 * 1024, MaxNestingDepth = 2, MaxRequestSize = 100, MaxQueuedBytesPerLink = 1000, AuthenticationTimeout = TimeSpan.Zero,
        });
        foreach (var key in new[] { "MaxFrameSize", "MaxNestingDepth", "MaxRequestSize", "MaxQueuedBytesPerLink", "AuthenticationTimeout" })
        {
            Assert.Contains($"EventHubs:Amqp:{key}", result.FailureMessage, StringComparison.Ordinal);
        }
    }

    private static SendingAmqpLink Link(string name) =>
        new(new AmqpLinkSettings { LinkName = name, Role = false, Source = new Source { Address = "ingestion/ConsumerGroups/$Default/Partitions/0" }, Target = new Target() });

    private static byte[] Bytes(AmqpMessage message)
    {
        var segments = message.GetPayload(int.MaxValue, out _);
        return segments.SelectMany(s => s.ToArray()).ToArray();
    }
}
