// An event over the link's max-message-size, as Event Hubs answers it: that delivery is settled rejected with
// amqp:link:message-size-exceeded and the link stays open. The Node SDK sends an array without measuring it, so it
// reaches the endpoint; it must raise MessageTooLargeError at once (not after its operation timeout) and send the next
// events on the same link. Run by SensorPipeline.EventHubs.Tests (NodeSdkTests) with EVENTHUBS_CONNECTION_STRING.
import { test } from "node:test";
import assert from "node:assert/strict";
import { EventHubProducerClient } from "@azure/event-hubs";

const connectionString = process.env.EVENTHUBS_CONNECTION_STRING;
const hub = "weather";
const partitionId = "2";

test("an event over the limit is refused MessageTooLargeError and the link keeps sending", async () => {
  assert.ok(connectionString, "EVENTHUBS_CONNECTION_STRING is not set");
  // No retries, and a timeout the refusal must beat: a closed link would leave the send waiting for it.
  const producer = new EventHubProducerClient(connectionString, hub, { retryOptions: { maxRetries: 0, timeoutInMs: 45000 } });
  try {
    const before = await producer.getPartitionProperties(partitionId);
    await producer.sendBatch([{ body: "before" }], { partitionId });
    // The SDK's sender for the partition and its AMQP link (internal fields of the pinned @azure/event-hubs 6.0.4).
    const sender = producer._sendersMap.get(partitionId);
    const link = sender._sender;
    assert.ok(link?.isOpen(), "the sender link is open after the first send");

    await assert.rejects(producer.sendBatch([{ body: Buffer.alloc(1024 * 1024 + 1) }], { partitionId }), (error) => {
      assert.equal(error.code, "MessageTooLargeError", `${error.code}: ${error.message}`);
      return true;
    });
    assert.ok(link.isOpen(), "the sender link is still open after the refusal");

    await producer.sendBatch([{ body: "after" }], { partitionId });
    assert.equal(sender._sender, link, "the next send went over the same link");
    const after = await producer.getPartitionProperties(partitionId);
    assert.equal(after.lastEnqueuedSequenceNumber, before.lastEnqueuedSequenceNumber + 2, "only the two small events were stored");
  } finally {
    await producer.close();
  }
});
