// Microsoft's Event Hubs emulator connection string, unchanged — `sb://localhost` with no port, so the SDK goes to
// 5672 — against devhost serving AMQP there too (EventHubs:Amqp:ExtraPort). Run only inside a private network
// namespace, where 5672 belongs to that devhost alone (tests/eventhubs-js/emulator-string.sh, from NodeSdkTests);
// loadgen (the .NET SDK) has sent LOADGEN_SENT events to the ingestion hub with the same string before.
import { test } from "node:test";
import assert from "node:assert/strict";
import { EventHubProducerClient, EventHubConsumerClient, earliestEventPosition } from "@azure/event-hubs";
import { consumeUntil } from "./consume.mjs";

const microsoftEmulatorString =
  "Endpoint=sb://localhost;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=SAS_KEY_VALUE;UseDevelopmentEmulator=true";
const hub = "ingestion";
const loadgenSent = Number(process.env.LOADGEN_SENT);

test("Microsoft's emulator string works unchanged: properties, what the .NET SDK sent, sendBatch and subscribe", async () => {
  assert.ok(loadgenSent > 0, "LOADGEN_SENT is not set");
  const producer = new EventHubProducerClient(microsoftEmulatorString, hub);
  try {
    const properties = await producer.getEventHubProperties();
    assert.deepEqual(properties.partitionIds, ["0", "1", "2", "3"]);
    let stored = 0;
    for (const p of properties.partitionIds) stored += (await producer.getPartitionProperties(p)).lastEnqueuedSequenceNumber + 1;
    assert.equal(stored, loadgenSent);

    const batch = await producer.createBatch({ partitionId: "0" });
    assert.ok(batch.tryAdd({ body: "through-5672" }));
    await producer.sendBatch(batch);
  } finally {
    await producer.close();
  }

  const consumer = new EventHubConsumerClient("$Default", microsoftEmulatorString, hub);
  try {
    await consumeUntil(consumer, "0", { startPosition: earliestEventPosition, maxWaitTimeInSeconds: 1 }, (got) => got.some((e) => e.body === "through-5672"));
  } finally {
    await consumer.close();
  }
});
