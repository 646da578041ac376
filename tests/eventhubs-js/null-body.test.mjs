// An event whose body is null (the Node SDK sends a data section holding null) reads back with a null body, as Event
// Hubs returns it, not as an empty binary. Run by SensorPipeline.EventHubs.Tests (NodeSdkTests) with
// EVENTHUBS_CONNECTION_STRING.
import { test } from "node:test";
import assert from "node:assert/strict";
import { EventHubProducerClient, EventHubConsumerClient } from "@azure/event-hubs";
import { consumeUntil } from "./consume.mjs";

const connectionString = process.env.EVENTHUBS_CONNECTION_STRING;
const hub = "weather";
const partitionId = "0";

test("a null body round-trips as null, next to an empty one", async () => {
  assert.ok(connectionString, "EVENTHUBS_CONNECTION_STRING is not set");
  const producer = new EventHubProducerClient(connectionString, hub);
  const consumer = new EventHubConsumerClient("$Default", connectionString, hub);
  try {
    const before = await producer.getPartitionProperties(partitionId);
    await producer.sendBatch([{ body: null, properties: { kind: "null" } }], { partitionId });
    await producer.sendBatch([{ body: Buffer.alloc(0), properties: { kind: "empty" } }, { body: null, properties: { kind: "null-in-batch" } }], { partitionId });
    const got = await consumeUntil(consumer, partitionId,
      { startPosition: { sequenceNumber: before.lastEnqueuedSequenceNumber, isInclusive: false }, maxWaitTimeInSeconds: 1 }, (events) => events.length >= 3);
    assert.deepEqual(got.map((e) => e.properties.kind), ["null", "empty", "null-in-batch"]);
    assert.equal(got[0].body, null);
    assert.ok(Buffer.isBuffer(got[1].body) && got[1].body.length === 0, `an empty body reads back empty, not ${JSON.stringify(got[1].body)}`);
    assert.equal(got[2].body, null);
  } finally {
    await consumer.close();
    await producer.close();
  }
});
