// A start position by enqueued time is strictly after that time, as Event Hubs reads it (x-opt-enqueued-time > T, in
// milliseconds): a receiver starting at the enqueued time of event A, as the SDK reported it, gets the event after A,
// not A again. Run by SensorPipeline.EventHubs.Tests (NodeSdkTests) with EVENTHUBS_CONNECTION_STRING.
import { test } from "node:test";
import assert from "node:assert/strict";
import { EventHubProducerClient, EventHubConsumerClient } from "@azure/event-hubs";
import { consumeUntil } from "./consume.mjs";

const connectionString = process.env.EVENTHUBS_CONNECTION_STRING;
const hub = "weather";
const partitionId = "3";

test("a start at event A's enqueued time begins with the event after A", async () => {
  assert.ok(connectionString, "EVENTHUBS_CONNECTION_STRING is not set");
  const producer = new EventHubProducerClient(connectionString, hub);
  const consumer = new EventHubConsumerClient("$Default", connectionString, hub);
  try {
    const before = await producer.getPartitionProperties(partitionId);
    await producer.sendBatch([{ body: "time-a" }], { partitionId });
    const [a] = await consumeUntil(consumer, partitionId,
      { startPosition: { sequenceNumber: before.lastEnqueuedSequenceNumber, isInclusive: false }, maxWaitTimeInSeconds: 1 }, (got) => got.length >= 1);
    assert.equal(a.body, "time-a");
    await producer.sendBatch([{ body: "time-b" }], { partitionId });

    const [first] = await consumeUntil(consumer, partitionId, { startPosition: { enqueuedOn: a.enqueuedTimeUtc }, maxWaitTimeInSeconds: 1 }, (got) => got.length >= 1);
    assert.equal(first.body, "time-b", `the first event after ${a.enqueuedTimeUtc.toISOString()} (A's enqueued time)`);
  } finally {
    await consumer.close();
    await producer.close();
  }
});
