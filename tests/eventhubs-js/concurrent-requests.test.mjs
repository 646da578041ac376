// Requests in flight together on one connection's $management and $cbs links, as two processors sharing a client make
// them. The Node SDK leaves the replies unsettled, so each reply needs a delivery tag of its own (AMQP 1.0 §2.6.12: a
// tag is unique among a link's unsettled deliveries); replies that share one fail the second request and close the link.
// Run by SensorPipeline.EventHubs.Tests (NodeSdkTests) with EVENTHUBS_CONNECTION_STRING.
import { test } from "node:test";
import assert from "node:assert/strict";
import { EventHubProducerClient } from "@azure/event-hubs";

const connectionString = process.env.EVENTHUBS_CONNECTION_STRING;

test("16 parallel getPartitionProperties from one client all succeed", async () => {
  assert.ok(connectionString, "EVENTHUBS_CONNECTION_STRING is not set");
  // No retries: a request the endpoint fails must fail the test, not hide behind the SDK's retry.
  const producer = new EventHubProducerClient(connectionString, "weather", { retryOptions: { maxRetries: 0, timeoutInMs: 30000 } });
  try {
    const ids = Array.from({ length: 16 }, (_, i) => String(i % 4));
    const results = await Promise.allSettled(ids.map((id) => producer.getPartitionProperties(id)));
    const failed = results.filter((r) => r.status === "rejected").map((r) => `${r.reason?.code}: ${r.reason?.message}`);
    assert.deepEqual(failed, [], `${failed.length} of 16 requests failed`);
    assert.deepEqual(results.map((r) => r.value.partitionId), ids);
    // The links are still usable afterwards, and four senders opened at once put their tokens on $cbs together.
    assert.deepEqual((await producer.getEventHubProperties()).partitionIds, ["0", "1", "2", "3"]);
    const batches = await Promise.all(["0", "1", "2", "3"].map((partitionId) => producer.createBatch({ partitionId })));
    assert.deepEqual(batches.map((b) => b.maxSizeInBytes), [1048576, 1048576, 1048576, 1048576]);
  } finally {
    await producer.close();
  }
});
