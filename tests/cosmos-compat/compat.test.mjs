// Answer by answer: the same operations through the JavaScript SDK (@azure/cosmos 4.10.1, root package.json) against
// the local Cosmos DB emulator and against the former npm stand-in (@vercel/cosmosdb-server 1.0.1, this folder's
// package.json, started here in-process on a free loopback port). Where both stores support an operation their answers
// must be equal; the differences known and accepted are listed in EXPECTED_DIFFERENCES and asserted as such, so a
// change on either side shows. Run by the emulator's .NET tests, which start the emulator and pass its endpoint in
// COSMOS_EMULATOR_ENDPOINT; by hand: `npm ci --prefix tests/cosmos-compat` then `node --test tests/cosmos-compat/`.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { Agent } from "node:https";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const { CosmosClient } = require("@azure/cosmos");
const { createHttpsServer } = require("@vercel/cosmosdb-server");

const key = "C2y6yDjf5/R+ob0N8A7Cgv30VRDJIWEHLM+4QDU5DE2nQ9nDuVTqobD4b8mGGyPMbIZnqyMsEcaGQy67XIw/Jw==";

// What the two stores answer differently, on purpose or by the stand-in's limits. Each is asserted as stated.
const EXPECTED_DIFFERENCES = {
  // The stand-in ignores x-ms-documentdb-partitionkey on a query and returns every partition's documents; the
  // service (and the emulator) runs the query within the one partition.
  partitionScopedQuery: { emulator: ["a1", "a2"], standIn: ["a1", "a2", "b1"] },
  // ST_DISTANCE: the stand-in uses a spherical (haversine) formula, the emulator the WGS-84 ellipsoid the service
  // documents; they agree within 0.5 % (asserted), not to the metre.
  spatialRelativeTolerance: 0.005,
};

let standIn;
let stores;

// The emulator's self-signed certificate is trusted as the handler trusts it: that certificate alone, given to the
// process (NODE_EXTRA_CA_CERTS = its data folder's trust/emulator.pem), with the host name verified (clients/README.md).
function client(endpoint, agent = new Agent({ keepAlive: true })) {
  assert.match(new URL(endpoint).hostname, /^(127\.0\.0\.1|localhost)$/);
  return new CosmosClient({ endpoint, key, agent, connectionPolicy: { enableEndpointDiscovery: false } });
}

// The one exception to that rule (clients/README.md): the former npm stand-in's certificate (CN=cosmosdb, expired in
// 2021, naming no loopback host) cannot pass a check, so it is taken by its subject alone, on loopback only.
class StandInAgent extends Agent {
  constructor() {
    super({ rejectUnauthorized: false, keepAlive: true });
  }

  createConnection(options, callback) {
    const socket = super.createConnection(options, callback);
    socket.once("secureConnect", () => {
      // A resumed TLS session carries no certificate: it continues a session this agent checked on its first handshake.
      const standIn = socket.isSessionReused() || socket.getPeerCertificate().subject?.CN === "cosmosdb";
      if (socket.remoteAddress !== "127.0.0.1" || !standIn) {
        socket.destroy(new Error("not the npm stand-in's certificate on loopback"));
      }
    });
    return socket;
  }
}

before(async () => {
  const emulator = process.env.COSMOS_EMULATOR_ENDPOINT;
  assert.ok(emulator, "COSMOS_EMULATOR_ENDPOINT is not set");
  standIn = createHttpsServer({ keepAlive: true });
  await new Promise((resolve, reject) => standIn.once("error", reject).listen(0, "127.0.0.1", resolve));
  assert.ok(process.env.NODE_EXTRA_CA_CERTS, "NODE_EXTRA_CA_CERTS (the emulator's certificate) is not set");
  stores = { emulator: client(emulator), standIn: client(`https://127.0.0.1:${standIn.address().port}/`, new StandInAgent()) };
});

after(() => {
  for (const store of Object.values(stores ?? {})) store.dispose();
  standIn?.closeAllConnections?.();
  standIn?.close();
});

async function freshContainer(cosmos) {
  const { database } = await cosmos.databases.createIfNotExists({ id: "compat" });
  const { container } = await database.containers.createIfNotExists({
    id: `c${Date.now()}${Math.floor(Math.random() * 1e6)}`,
    partitionKey: { paths: ["/deviceId"] },
    indexingPolicy: { spatialIndexes: [{ path: "/location/?", types: ["Point"] }] },
  });
  return container;
}

// The status code of an operation, whether the SDK returns it or throws it.
async function status(operation) {
  try {
    return (await operation()).statusCode;
  } catch (error) {
    if (typeof error.code !== "number") throw error;
    return error.code;
  }
}

// A document without the system properties each store stamps on its own (_rid, _etag, _ts, _self, _attachments).
function userFields(document) {
  return document && Object.fromEntries(Object.entries(document).filter(([name]) => !name.startsWith("_")));
}

// Runs `scenario(container)` on a fresh container in each store; returns { emulator, standIn }.
async function both(scenario) {
  const results = {};
  for (const [name, cosmos] of Object.entries(stores)) {
    results[name] = await scenario(await freshContainer(cosmos));
  }
  return results;
}

function assertSame({ emulator, standIn: other }, message) {
  assert.deepEqual(other, emulator, message);
}

test("CRUD answers the same status codes and documents", async () => {
  const answers = await both(async (c) => {
    const steps = [];
    const created = await c.items.create({ id: "a", deviceId: "d1", seq: 1, tags: ["x"], nested: { v: 1.5 } });
    steps.push(["create", created.statusCode, userFields(created.resource)]);
    steps.push(["create again", await status(() => c.items.create({ id: "a", deviceId: "d1", seq: 9 }))]);
    const read = await c.item("a", "d1").read();
    steps.push(["read", read.statusCode, userFields(read.resource)]);
    steps.push(["read missing", await status(() => c.item("nope", "d1").read())]);
    steps.push(["upsert new", await status(() => c.items.upsert({ id: "b", deviceId: "d2", seq: 1 }))]);
    steps.push(["upsert existing", await status(() => c.items.upsert({ id: "b", deviceId: "d2", seq: 2 }))]);
    const replaced = await c.item("a", "d1").replace({ id: "a", deviceId: "d1", seq: 2 });
    steps.push(["replace", replaced.statusCode, userFields(replaced.resource)]);
    steps.push(["replace missing", await status(() => c.item("nope", "d1").replace({ id: "nope", deviceId: "d1" }))]);
    steps.push(["read after replace", userFields((await c.item("a", "d1").read()).resource)]);
    steps.push(["delete", await status(() => c.item("a", "d1").delete())]);
    steps.push(["delete missing", await status(() => c.item("a", "d1").delete())]);
    steps.push(["read deleted", await status(() => c.item("a", "d1").read())]);
    return steps;
  });
  assertSame(answers);
  // Guard against two stores agreeing on nonsense: the service's codes.
  assert.deepEqual(answers.emulator.map((s) => (typeof s[1] === "number" ? s[1] : null)),
    [201, 409, 200, 404, 201, 200, 200, 404, null, 204, 404, 404]);
});

test("ETags: a stale If-Match is 412, the current one succeeds, and every write changes the ETag", async () => {
  const answers = await both(async (c) => {
    const first = await c.items.create({ id: "e", deviceId: "d", seq: 1 });
    const second = await c.item("e", "d").replace({ id: "e", deviceId: "d", seq: 2 }, { accessCondition: { type: "IfMatch", condition: first.etag } });
    return [
      first.etag !== second.etag,
      await status(() => c.item("e", "d").replace({ id: "e", deviceId: "d", seq: 3 }, { accessCondition: { type: "IfMatch", condition: first.etag } })),
      await status(() => c.item("e", "d").replace({ id: "e", deviceId: "d", seq: 3 }, { accessCondition: { type: "IfMatch", condition: second.etag } })),
      await status(() => c.item("e", "d").delete({ accessCondition: { type: "IfMatch", condition: first.etag } })),
      userFields((await c.item("e", "d").read()).resource),
    ];
  });
  assertSame(answers);
  assert.deepEqual(answers.emulator, [true, 412, 200, 412, { id: "e", deviceId: "d", seq: 3 }]);
});

const readings = Array.from({ length: 30 }, (_, i) => ({
  id: `r${String(i).padStart(2, "0")}`,
  deviceId: `dev-${i % 4}`,
  seq: i,
  kind: i % 3 === 0 ? "seismic" : "weather",
  level: Math.round(Math.sin(i) * 1000) / 10,
  location: { type: "Point", coordinates: [13.4 + (i % 7) * 0.05, 52.5 + (i % 5) * 0.04] },
}));

const queries = [
  "SELECT * FROM c WHERE c.seq >= 10 AND c.kind = 'weather' ORDER BY c.seq",
  "SELECT c.id, c.level FROM c WHERE c.level > 0 ORDER BY c.level DESC",
  "SELECT TOP 5 c.id FROM c ORDER BY c.seq DESC",
  "SELECT VALUE COUNT(1) FROM c WHERE c.kind = 'seismic'",
  "SELECT VALUE COUNT(1) FROM c",
  "SELECT c.id FROM c WHERE c.deviceId IN ('dev-1', 'dev-3') ORDER BY c.id",
  "SELECT c.id, c.location.coordinates[0] AS lon FROM c WHERE c.seq < 4 ORDER BY c.id",
  "SELECT c.id FROM c WHERE ST_DISTANCE(c.location, {'type': 'Point', 'coordinates': [13.45, 52.54]}) < 6000 ORDER BY c.id",
  "SELECT c.id FROM c WHERE ST_WITHIN(c.location, {'type': 'Polygon', 'coordinates': [[[13.38, 52.49], [13.52, 52.49], [13.52, 52.59], [13.38, 52.59], [13.38, 52.49]]]}) ORDER BY c.id",
];

test("cross-partition queries return the same rows", async () => {
  const answers = await both(async (c) => {
    for (const reading of readings) await c.items.create(reading);
    const rows = [];
    for (const query of queries) {
      const { resources } = await c.items.query(query).fetchAll();
      rows.push(resources.map((r) => (typeof r === "object" ? userFields(r) : r)));
    }
    const { resources: withParameter } = await c.items.query({ query: "SELECT VALUE c.id FROM c WHERE c.seq < @n ORDER BY c.seq", parameters: [{ name: "@n", value: 3 }] }).fetchAll();
    rows.push(withParameter);
    return rows;
  });
  for (let i = 0; i < queries.length; i++) {
    assert.deepEqual(answers.standIn[i], answers.emulator[i], queries[i]);
  }
  assert.deepEqual(answers.standIn.at(-1), answers.emulator.at(-1));
  // The answers are not empty on both sides by accident.
  assert.equal(answers.emulator[3][0], 10);
  assert.ok(answers.emulator[7].length > 0 && answers.emulator[7].length < readings.length);
  assert.ok(answers.emulator[8].length > 0 && answers.emulator[8].length < readings.length);
});

test("ST_DISTANCE agrees within the documented tolerance (spherical stand-in, ellipsoidal emulator)", async () => {
  const answers = await both(async (c) => {
    for (const reading of readings) await c.items.create(reading);
    const { resources } = await c.items.query("SELECT c.id, ST_DISTANCE(c.location, {'type': 'Point', 'coordinates': [2.35, 48.86]}) AS meters FROM c ORDER BY c.id").fetchAll();
    return resources;
  });
  assert.deepEqual(answers.standIn.map((r) => r.id), answers.emulator.map((r) => r.id));
  let largest = 0;
  for (let i = 0; i < answers.emulator.length; i++) {
    const relative = Math.abs(answers.standIn[i].meters - answers.emulator[i].meters) / answers.emulator[i].meters;
    largest = Math.max(largest, relative);
    assert.ok(relative < EXPECTED_DIFFERENCES.spatialRelativeTolerance, `${answers.emulator[i].id}: ${answers.emulator[i].meters} m vs ${answers.standIn[i].meters} m`);
  }
  // From around Berlin to Paris: 870 to 900 km.
  assert.ok(answers.emulator.every((r) => r.meters > 850_000 && r.meters < 930_000));
});

test("a query within one partition: the stand-in's known difference", async () => {
  const answers = await both(async (c) => {
    for (const [id, deviceId] of [["a1", "a"], ["a2", "a"], ["b1", "b"]]) await c.items.create({ id, deviceId });
    const { resources } = await c.items.query("SELECT VALUE c.id FROM c ORDER BY c.id", { partitionKey: "a" }).fetchAll();
    return resources;
  });
  assert.deepEqual(answers, { emulator: EXPECTED_DIFFERENCES.partitionScopedQuery.emulator, standIn: EXPECTED_DIFFERENCES.partitionScopedQuery.standIn });
});
