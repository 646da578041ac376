#!/usr/bin/env node
// The local Cosmos DB stand-in: @vercel/cosmosdb-server (in memory), started from code rather than its CLI
// because the CLI closes every connection (a TLS handshake per request, ~250 upserts/s); with keep-alive
// the same server manages ~3,000/s on two cores. Loopback only.
// Usage: node devhost/cosmos-standin/server.cjs [port]   (0 or none = a free port)
// Prints one line "Cosmos DB stand-in listening on https://127.0.0.1:PORT/" once it accepts connections.
"use strict";
const { createHttpsServer } = require("@vercel/cosmosdb-server");

const port = Number.parseInt(process.argv[2] ?? "0", 10);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`cosmos-standin: port must be 0..65535, got "${process.argv[2]}"`);
  process.exit(2);
}

const server = createHttpsServer({ keepAlive: true }).listen(port, "127.0.0.1", () => {
  console.log(`Cosmos DB stand-in listening on https://127.0.0.1:${server.address().port}/`);
});
server.on("error", (error) => {
  console.error(`cosmos-standin: ${error.message}`);
  process.exit(1);
});
// Stop at once when asked: the data is in memory only, and keep-alive connections would hold close() open.
for (const signal of ["SIGTERM", "SIGINT"]) {
  process.on(signal, () => process.exit(0));
}
