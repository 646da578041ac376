// A partition the hub does not have, as Event Hubs answers it: com.microsoft:argument-out-of-range with the service's
// text ("The specified partition is invalid for an EventHub partition sender or receiver. It should be between 0 and
// N."), on $management READ, on a sender's attach and on a receiver's attach; the SDK reports ArgumentOutOfRangeError.
// An unknown consumer group stays not-found. Run by SensorPipeline.EventHubs.Tests (NodeSdkTests) with
// EVENTHUBS_CONNECTION_STRING.
import { test } from "node:test";
import assert from "node:assert/strict";
import { EventHubProducerClient, EventHubConsumerClient, earliestEventPosition } from "@azure/event-hubs";

const connectionString = process.env.EVENTHUBS_CONNECTION_STRING;
const hub = "weather";
const retryOptions = { maxRetries: 0, timeoutInMs: 30000 };
const outOfRange = (error) => {
  assert.equal(error.code, "ArgumentOutOfRangeError", `${error.code}: ${error.message}`);
  assert.match(error.message, /The specified partition is invalid for an EventHub partition sender or receiver\. It should be between 0 and 3\./);
  return true;
};

// The first error the subscription reports (then it is closed).
async function firstError(consumer, partitionId) {
  let subscription;
  const error = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("processError was not called within 30 s")), 30000);
    subscription = consumer.subscribe(partitionId, {
      processEvents: async () => {},
      processError: async (e) => {
        clearTimeout(timer);
        resolve(e);
      },
    }, { startPosition: earliestEventPosition, maxWaitTimeInSeconds: 1 });
  });
  await subscription.close();
  return error;
}

test("an unknown partition is out of range on $management, sender and receiver; an unknown group is not found", async () => {
  assert.ok(connectionString, "EVENTHUBS_CONNECTION_STRING is not set");
  const producer = new EventHubProducerClient(connectionString, hub, { retryOptions });
  try {
    await assert.rejects(producer.getPartitionProperties("4"), outOfRange);
    await assert.rejects(producer.sendBatch([{ body: "to-nowhere" }], { partitionId: "7" }), outOfRange);
  } finally {
    await producer.close();
  }

  const consumer = new EventHubConsumerClient("$Default", connectionString, hub, { retryOptions });
  try {
    outOfRange(await firstError(consumer, "4"));
  } finally {
    await consumer.close();
  }

  const noGroup = new EventHubConsumerClient("no-such-group", connectionString, hub, { retryOptions });
  try {
    const error = await firstError(noGroup, "0");
    assert.equal(error.code, "MessagingEntityNotFoundError", `${error.code}: ${error.message}`);
  } finally {
    await noGroup.close();
  }
});
