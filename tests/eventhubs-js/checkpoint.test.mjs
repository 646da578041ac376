// The Node Event Hubs SDK's load-balanced consumer with its blob checkpoint store (@azure/eventhubs-checkpointstore-blob
// from npm, root package.json) on azurite, against devhost's AMQP endpoint. Run by SensorPipeline.EventHubs.Tests
// (NodeSdkTests) with EVENTHUBS_CONNECTION_STRING (devhost) and STORAGE_CONNECTION_STRING (azurite) set.
import { test } from "node:test";
import assert from "node:assert/strict";
import { EventHubProducerClient, EventHubConsumerClient, earliestEventPosition } from "@azure/event-hubs";
import { BlobCheckpointStore } from "@azure/eventhubs-checkpointstore-blob";
import { ContainerClient } from "@azure/storage-blob";
import { consumeUntil } from "./consume.mjs";

const connectionString = process.env.EVENTHUBS_CONNECTION_STRING;
const storageConnectionString = process.env.STORAGE_CONNECTION_STRING;
const hub = "seismic";
const partitions = ["0", "1", "2", "3"];
const loadBalancingOptions = { updateIntervalInMs: 500, partitionOwnershipExpirationIntervalInMs: 5000 };

async function send(phase, perPartition) {
  const producer = new EventHubProducerClient(connectionString, hub);
  try {
    for (const partitionId of partitions) {
      const batch = await producer.createBatch({ partitionId });
      for (let i = 0; i < perPartition; i++) assert.ok(batch.tryAdd({ body: `${phase}-${partitionId}-${i}` }));
      await producer.sendBatch(batch);
    }
  } finally {
    await producer.close();
  }
}

// Subscribes to every partition through the checkpoint store, checkpointing each batch's last event, until `done`
// holds for the bodies that arrived; then closes, which gives up the ownership.
async function consumeWithStoreUntil(store, done) {
  const consumer = new EventHubConsumerClient("$Default", connectionString, hub, store, { loadBalancingOptions });
  try {
    const received = await consumeUntil(consumer, undefined, { startPosition: earliestEventPosition, maxBatchSize: 10, maxWaitTimeInSeconds: 1 },
      (got) => done(got.map((e) => e.body)), (events, context) => context.updateCheckpoint(events[events.length - 1]));
    return received.map((e) => e.body);
  } finally {
    await consumer.close();
  }
}

test("a consumer with the blob checkpoint store writes checkpoints, and the next subscribe resumes after them", async () => {
  assert.ok(connectionString, "EVENTHUBS_CONNECTION_STRING is not set");
  assert.ok(storageConnectionString, "STORAGE_CONNECTION_STRING is not set");
  const container = new ContainerClient(storageConnectionString, "node-checkpoints");
  await container.createIfNotExists();
  const store = new BlobCheckpointStore(container);

  await send("first", 3);
  const first = await consumeWithStoreUntil(store, (got) => got.length >= 12);
  assert.equal(first.length, 12);

  const blobs = {};
  for await (const blob of container.listBlobsFlat({ includeMetadata: true })) blobs[blob.name] = blob.metadata;
  for (const p of partitions) {
    const checkpoint = blobs[`127.0.0.1/seismic/$default/checkpoint/${p}`];
    assert.ok(checkpoint, `no checkpoint blob for partition ${p}: ${Object.keys(blobs).join(", ")}`);
    assert.equal(checkpoint.sequencenumber, "2");
    assert.ok(blobs[`127.0.0.1/seismic/$default/ownership/${p}`], `no ownership blob for partition ${p}`);
  }

  // Events arrive in order per partition: once every partition's second events arrived, any first event the
  // checkpoints did not skip would have come before them.
  await send("second", 2);
  const second = await consumeWithStoreUntil(store, (got) => got.filter((b) => b.startsWith("second-")).length >= 8);
  assert.deepEqual(second.slice().sort(), partitions.flatMap((p) => [`second-${p}-0`, `second-${p}-1`]).sort());
});
