// The Node SDK's idempotent publishing (`enableIdempotentRetries`, a public option of the buffered producer) against
// devhost, which does not serve it: the sender link is refused with amqp:not-implemented and a text saying so, which the
// SDK hands to the application's onSendEventsErrorHandler; nothing is stored. (The buffered producer then keeps trying
// to create its batch, reporting each refusal, and its flush() never completes: the SDK's loop, shown here by not
// awaiting it.) Run by SensorPipeline.EventHubs.Tests (NodeSdkTests) with EVENTHUBS_CONNECTION_STRING.
import { test } from "node:test";
import assert from "node:assert/strict";
import { EventHubBufferedProducerClient, EventHubProducerClient } from "@azure/event-hubs";

const connectionString = process.env.EVENTHUBS_CONNECTION_STRING;
const hub = "ingestion";
const partitionId = "3";

test("idempotent publishing is refused clearly through the SDK's error handler and stores nothing", async () => {
  assert.ok(connectionString, "EVENTHUBS_CONNECTION_STRING is not set");
  let reported;
  const refused = new Promise((resolve, reject) => {
    reported = resolve;
    setTimeout(() => reject(new Error("onSendEventsErrorHandler was not called within 30 s")), 30000).unref();
  });
  const producer = new EventHubBufferedProducerClient(connectionString, hub, {
    enableIdempotentRetries: true,
    retryOptions: { maxRetries: 0, timeoutInMs: 2000 },
    maxWaitTimeInMs: 100,
    onSendEventsErrorHandler: (context) => reported(context),
  });
  let context;
  try {
    await producer.enqueueEvent({ body: "idempotent-1" }, { partitionId });
    context = await refused;
  } finally {
    await producer.close({ flush: false });
  }

  assert.equal(context.partitionId, partitionId);
  assert.equal(context.error.code, "NotImplementedError");
  assert.match(context.error.message, /devhost does not serve idempotent publishing/);

  const plain = new EventHubProducerClient(connectionString, hub);
  try {
    const partition = await plain.getPartitionProperties(partitionId);
    assert.equal(partition.isEmpty, true);
  } finally {
    await plain.close();
  }
});
