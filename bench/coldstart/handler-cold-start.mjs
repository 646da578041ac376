#!/usr/bin/env node
// `./pipeline bench coldstart`: the deploy package's handler from process start to its first Splitter invocation
// answered, for several packages side by side (./pipeline bench coldstart builds them: self-contained as shipped
// before, and with ReadyToRun). Runs alternate between the packages so a busy machine hurts both alike.
//   node bench/coldstart/handler-cold-start.mjs --runs 7 <label>=<package dir> ...
// Per run: wall time to the handler's "listening on" line, to the first Splitter invocation answered (one event of 200
// valid readings, both kinds: decode, validate, envelopes; the Splitter writes to Cosmos DB only for dead letters, so
// no store is needed), and the process's CPU (user + system from /proc/<pid>/stat) at that moment. Cosmos DB points at
// a closed port and CreateIfNotExists is false, as in Azure: the handler does not contact the store at start-up.
import { spawn } from 'node:child_process';
import { readFileSync, statSync, readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';

const args = process.argv.slice(2);
let runs = 7;
const packages = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--runs') runs = Number(args[++i]);
  else {
    const [label, dir] = args[i].split('=');
    packages.push({ label, dir: resolve(dir) });
  }
}
if (packages.length === 0 || !(runs >= 1)) {
  console.error('usage: handler-cold-start.mjs [--runs 7] <label>=<package dir> ...');
  process.exit(1);
}

const ticksPerSecond = 100; // USER_HZ on Linux
const wellKnownEmulatorKey = 'C2y6yDjf5/R+ob0N8A7Cgv30VRDJIWEHLM+4QDU5DE2nQ9nDuVTqobD4b8mGGyPMbIZnqyMsEcaGQy67XIw/Jw==';

// ---- One ingestion event of 200 readings (protobuf written by hand: varints, length-delimited fields, doubles) ----
const varint = (n) => { const out = []; let v = BigInt(n); do { let b = Number(v & 0x7fn); v >>= 7n; if (v) b |= 0x80; out.push(b); } while (v); return Buffer.from(out); };
const tag = (field, wire) => varint((field << 3) | wire);
const bytesField = (field, buf) => Buffer.concat([tag(field, 2), varint(buf.length), buf]);
const varintField = (field, n) => Buffer.concat([tag(field, 0), varint(n)]);
const doubleField = (field, x) => { const b = Buffer.alloc(8); b.writeDoubleLE(x); return Buffer.concat([tag(field, 1), b]); };

function reading(i, now) {
  const weather = i % 2 === 0;
  const seconds = Math.floor(now / 1000);
  const payload = Buffer.concat([1, 2, 3, 4, 5, 6].map((f) => doubleField(f, weather ? [12.5, 60, 1013, 3.2, 180, 0][f - 1] : [2.1, 10, 0.01, 0.1, 0.2, 9.8][f - 1])));
  return Buffer.concat([
    bytesField(1, Buffer.from(`${weather ? 'dev-weather' : 'dev-seismic'}-${String(i).padStart(4, '0')}`)),
    varintField(2, weather ? 1 : 2),
    varintField(3, 1),
    bytesField(4, Buffer.concat([varintField(1, seconds), varintField(2, (now % 1000) * 1_000_000)])),
    bytesField(5, Buffer.concat([doubleField(1, 47.6 + i / 1000), doubleField(2, -122.3 - i / 1000), doubleField(3, 50)])),
    bytesField(weather ? 10 : 11, payload),
  ]);
}

function splitterRequest() {
  const now = Date.now();
  const event = Buffer.concat(Array.from({ length: 200 }, (_, i) => bytesField(1, reading(i, now))));
  const enqueued = new Date(now).toISOString().replace('Z', '0000');
  return JSON.stringify({
    Data: { events: JSON.stringify([event.toString('base64')]) },
    Metadata: {
      PartitionContext: { EventHubName: 'ingestion', ConsumerGroup: 'splitter', PartitionId: '0' },
      SequenceNumberArray: '[1]',
      EnqueuedTimeUtcArray: JSON.stringify([enqueued]),
      sys: { MethodName: 'Splitter' },
    },
  });
}

// ---- One cold start --------------------------------------------------------------------------------------------
const freePort = () => new Promise((resolve) => { const s = createServer(); s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); }); });
const cpuMs = (pid) => { const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' '); return ((Number(f[11]) + Number(f[12])) * 1000) / ticksPerSecond; };

async function coldStart(dir) {
  const port = await freePort();
  const start = process.hrtime.bigint();
  const ms = () => Number(process.hrtime.bigint() - start) / 1e6;
  const child = spawn(join(dir, 'handler', 'SensorPipeline.Functions'), [], {
    cwd: dir,
    env: {
      PATH: process.env.PATH, HOME: process.env.HOME,
      FUNCTIONS_CUSTOMHANDLER_PORT: String(port), FUNCTIONS_APP_ROOT_PATH: dir,
      Cosmos__AccountEndpoint: 'https://127.0.0.1:9/', Cosmos__AuthKey: wellKnownEmulatorKey,
      Cosmos__CreateIfNotExists: 'false', Cosmos__DatabaseName: 'sensorpipeline',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  const spawnFailed = new Promise((_, reject) => child.once('error', reject));
  try {
    const listening = await Promise.race([spawnFailed, new Promise((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error(`no "listening on" within 60 s\n${out}\n${stderr}`)), 60_000);
      child.stdout.on('data', (d) => { out += d; if (/listening on/.test(out)) { clearTimeout(timer); resolve(ms()); } });
      child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`handler exited with ${code}\n${out}\n${stderr}`)); });
    })]);
    const response = await fetch(`http://127.0.0.1:${port}/Splitter`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: splitterRequest() });
    const body = await response.text();
    const first = ms();
    const cpu = cpuMs(child.pid);
    if (!response.ok || !body.includes('Outputs')) throw new Error(`Splitter answered ${response.status}: ${body.slice(0, 300)}`);
    return { listening, first, cpu };
  } finally {
    child.kill('SIGKILL');
    await new Promise((done) => (child.pid === undefined || child.exitCode !== null || child.signalCode !== null ? done() : child.once('exit', done)));
  }
}

// ---- Runs, alternated; medians ---------------------------------------------------------------------------------
const sizeMb = (dir) => { let total = 0; const walk = (d) => { for (const e of readdirSync(d, { withFileTypes: true })) { const p = join(d, e.name); if (e.isDirectory()) walk(p); else total += statSync(p).size; } }; walk(dir); return total / 1e6; };
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2; };
const results = new Map(packages.map((p) => [p.label, []]));
await coldStart(packages[0].dir); // warms the file cache for the first package as much as the others get
for (let run = 0; run < runs; run++) {
  for (const p of run % 2 ? [...packages].reverse() : packages) results.get(p.label).push(await coldStart(p.dir));
}

const rows = packages.map((p) => {
  const r = results.get(p.label);
  return [p.label, `${sizeMb(p.dir).toFixed(0)} MB`, median(r.map((x) => x.listening)).toFixed(0), median(r.map((x) => x.first)).toFixed(0), median(r.map((x) => x.cpu)).toFixed(0),
    `${Math.min(...r.map((x) => x.first)).toFixed(0)}–${Math.max(...r.map((x) => x.first)).toFixed(0)}`];
});
const header = ['package', 'size', 'start → listening, ms (median)', 'start → first Splitter invocation answered, ms (median)', 'CPU by then, ms (median)', 'first invocation, min–max ms'];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
const line = (cells) => '│ ' + cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' │ ') + ' │';
console.log(`handler cold start, ${runs} runs per package, alternated (load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')} at the end)`);
console.log(line(header));
for (const r of rows) console.log(line(r));
