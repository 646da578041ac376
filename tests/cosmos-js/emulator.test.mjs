// The JavaScript SDK (@azure/cosmos 4.10.1) against the local Cosmos DB emulator: CRUD, a cross-partition query and a
// spatial query. Run by the emulator's .NET test suite, which starts the emulator and passes its endpoint in
// COSMOS_EMULATOR_ENDPOINT; runnable by hand with `node --test tests/cosmos-js/` against a running emulator.
import { test } from "node:test";
import assert from "node:assert/strict";
import { CosmosClient } from "@azure/cosmos";

const endpoint = process.env.COSMOS_EMULATOR_ENDPOINT;
const key = "C2y6yDjf5/R+ob0N8A7Cgv30VRDJIWEHLM+4QDU5DE2nQ9nDuVTqobD4b8mGGyPMbIZnqyMsEcaGQy67XIw/Jw==";

function client() {
  assert.ok(endpoint, "COSMOS_EMULATOR_ENDPOINT is not set");
  // The emulator's self-signed certificate is trusted as the handler trusts it: that certificate alone, given to the
  // process (NODE_EXTRA_CA_CERTS = its data folder's trust/emulator.pem), with the host name verified (clients/README.md).
  assert.match(new URL(endpoint).hostname, /^(127\.0\.0\.1|localhost)$/);
  assert.ok(process.env.NODE_EXTRA_CA_CERTS, "NODE_EXTRA_CA_CERTS (the emulator's certificate) is not set");
  return new CosmosClient({ endpoint, key, connectionPolicy: { enableEndpointDiscovery: false } });
}

async function freshContainer(cosmos) {
  const { database } = await cosmos.databases.createIfNotExists({ id: "js" });
  const { container } = await database.containers.createIfNotExists({
    id: `c${Date.now()}${Math.floor(Math.random() * 1e6)}`,
    partitionKey: { paths: ["/deviceId"] },
    indexingPolicy: { spatialIndexes: [{ path: "/location/?", types: ["Point"] }] },
  });
  return container;
}

test("CRUD follows the service's status codes", async () => {
  const container = await freshContainer(client());
  const created = await container.items.create({ id: "a", deviceId: "d1", seq: 1 });
  assert.equal(created.statusCode, 201);
  await assert.rejects(container.items.create({ id: "a", deviceId: "d1", seq: 2 }), (e) => e.code === 409);

  const read = await container.item("a", "d1").read();
  assert.equal(read.statusCode, 200);
  assert.equal(read.resource.seq, 1);
  const missing = await container.item("nope", "d1").read();
  assert.equal(missing.statusCode, 404);

  const replaced = await container.item("a", "d1").replace({ id: "a", deviceId: "d1", seq: 2 }, { accessCondition: { type: "IfMatch", condition: read.etag } });
  assert.equal(replaced.statusCode, 200);
  await assert.rejects(
    container.item("a", "d1").replace({ id: "a", deviceId: "d1", seq: 3 }, { accessCondition: { type: "IfMatch", condition: read.etag } }),
    (e) => e.code === 412);

  const upserted = await container.items.upsert({ id: "b", deviceId: "d2", seq: 1 });
  assert.equal(upserted.statusCode, 201);
  const deleted = await container.item("a", "d1").delete();
  assert.equal(deleted.statusCode, 204);
  assert.equal((await container.item("a", "d1").read()).statusCode, 404);
});

test("a cross-partition query orders, counts and pages", async () => {
  const container = await freshContainer(client());
  for (let i = 0; i < 25; i++) {
    await container.items.create({ id: `r${i}`, deviceId: `dev-${i % 5}`, seq: i });
  }

  const { resources: ordered } = await container.items.query("SELECT * FROM c WHERE c.seq >= 5 ORDER BY c.seq DESC", { maxItemCount: 4 }).fetchAll();
  assert.deepEqual(ordered.map((r) => r.seq), Array.from({ length: 20 }, (_, i) => 24 - i));

  const { resources: count } = await container.items.query({ query: "SELECT VALUE COUNT(1) FROM c WHERE c.seq < @n", parameters: [{ name: "@n", value: 10 }] }).fetchAll();
  assert.deepEqual(count, [10]);
});

test("a spatial query finds the points nearby", async () => {
  const container = await freshContainer(client());
  await container.items.create({ id: "near", deviceId: "a", location: { type: "Point", coordinates: [13.40, 52.52] } });
  await container.items.create({ id: "far", deviceId: "b", location: { type: "Point", coordinates: [2.35, 48.86] } });
  const { resources } = await container.items.query({
    query: "SELECT c.id FROM c WHERE ST_DISTANCE(c.location, {'type': 'Point', 'coordinates': [13.41, 52.52]}) < @meters",
    parameters: [{ name: "@meters", value: 5000 }],
  }).fetchAll();
  assert.deepEqual(resources.map((r) => r.id), ["near"]);
});
