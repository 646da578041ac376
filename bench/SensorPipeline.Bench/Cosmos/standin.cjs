#!/usr/bin/env node
// The former npm stand-in for Cosmos DB (@vercel/cosmosdb-server, in memory), for `./pipeline bench cosmos` only:
// started from code with keep-alive (its CLI closes every connection, a TLS handshake per request). Loopback only.
// The package comes from tests/cosmos-compat (pinned there); the bench passes its node_modules in NODE_PATH.
// Usage: node standin.cjs [port]   (0 or none = a free port). Prints "... listening on https://127.0.0.1:PORT/".
"use strict";
const { createHttpsServer } = require("@vercel/cosmosdb-server");

const port = Number.parseInt(process.argv[2] ?? "0", 10);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`standin: port must be 0..65535, got "${process.argv[2]}"`);
  process.exit(2);
}

const server = createHttpsServer({ keepAlive: true }).listen(port, "127.0.0.1", () => {
  console.log(`Cosmos DB stand-in listening on https://127.0.0.1:${server.address().port}/`);
});
server.on("error", (error) => {
  console.error(`standin: ${error.message}`);
  process.exit(1);
});
for (const signal of ["SIGTERM", "SIGINT"]) {
  process.on(signal, () => process.exit(0));
}
