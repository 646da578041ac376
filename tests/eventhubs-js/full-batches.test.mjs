// A batch the Node SDK fills with tryAdd to its limit (the link's max-message-size) is accepted whatever the size of
// its events: Event Hubs judges a batch by the transfer's bytes against that limit, the measure the SDK fills by.
// Run by SensorPipeline.EventHubs.Tests (NodeSdkTests) with EVENTHUBS_CONNECTION_STRING.
import { test } from "node:test";
import assert from "node:assert/strict";
import { EventHubProducerClient } from "@azure/event-hubs";

const connectionString = process.env.EVENTHUBS_CONNECTION_STRING;
const hub = "ingestion";
const partitionId = "0";

test("batches filled to the limit are accepted for bodies of 10 B to 100 KB", async () => {
  assert.ok(connectionString, "EVENTHUBS_CONNECTION_STRING is not set");
  const producer = new EventHubProducerClient(connectionString, hub, { retryOptions: { maxRetries: 0, timeoutInMs: 60000 } });
  try {
    for (const bodySize of [10, 1024, 10 * 1024, 100 * 1024]) {
      const batch = await producer.createBatch({ partitionId });
      const body = Buffer.alloc(bodySize, 7);
      while (batch.tryAdd({ body }));
      assert.ok(batch.sizeInBytes > batch.maxSizeInBytes - 100 * 1024 - 200, `bodies of ${bodySize} B: the batch holds ${batch.sizeInBytes} bytes`);
      const before = await producer.getPartitionProperties(partitionId);
      await producer.sendBatch(batch);
      const after = await producer.getPartitionProperties(partitionId);
      assert.equal(after.lastEnqueuedSequenceNumber, before.lastEnqueuedSequenceNumber + batch.count, `bodies of ${bodySize} B: ${batch.count} events stored`);
    }
  } finally {
    await producer.close();
  }
});
