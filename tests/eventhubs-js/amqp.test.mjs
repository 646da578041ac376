// The Node Event Hubs SDK (@azure/event-hubs from npm, root package.json) against devhost's AMQP endpoint.
// Run by SensorPipeline.EventHubs.Tests (NodeSdkTests) with EVENTHUBS_CONNECTION_STRING set to the devhost string.
// It differs from the .NET client on the wire: SASL ANONYMOUS, a $cbs reply link without a target (replies routed by
// link name), addresses without a leading slash, a quoted filter value under descriptor 0x468C00000004.
import { test } from "node:test";
import assert from "node:assert/strict";
import { EventHubProducerClient, EventHubConsumerClient, earliestEventPosition } from "@azure/event-hubs";
import { consumeUntil } from "./consume.mjs";

const connectionString = process.env.EVENTHUBS_CONNECTION_STRING;
const hub = "ingestion";
const partitionId = "1";

test("properties, sendBatch and subscribe round-trip through devhost", async () => {
  assert.ok(connectionString, "EVENTHUBS_CONNECTION_STRING is not set");
  const producer = new EventHubProducerClient(connectionString, hub);
  try {
    const properties = await producer.getEventHubProperties();
    assert.deepEqual(properties.partitionIds, ["0", "1", "2", "3"]);

    const batch = await producer.createBatch({ partitionId });
    assert.equal(batch.maxSizeInBytes, 1024 * 1024);
    assert.ok(batch.tryAdd({ body: "node-1", properties: { sensor: "n1", reading: 7 } }));
    assert.ok(batch.tryAdd({ body: { t: 21.5 }, contentType: "application/json", messageId: "node-m2" }));
    await producer.sendBatch(batch);

    const partition = await producer.getPartitionProperties(partitionId);
    assert.equal(partition.lastEnqueuedSequenceNumber, 1);
  } finally {
    await producer.close();
  }

  const consumer = new EventHubConsumerClient("$Default", connectionString, hub);
  let received;
  try {
    received = await consumeUntil(consumer, partitionId, { startPosition: earliestEventPosition, maxWaitTimeInSeconds: 1 }, (got) => got.length >= 2);
  } finally {
    await consumer.close();
  }

  assert.equal(received[0].body, "node-1");
  assert.equal(received[0].properties.sensor, "n1");
  assert.equal(received[0].properties.reading, 7);
  assert.equal(received[0].sequenceNumber, 0);
  assert.deepEqual(received[1].body, { t: 21.5 });
  assert.equal(received[1].messageId, "node-m2");
  assert.equal(received[1].contentType, "application/json");
});
