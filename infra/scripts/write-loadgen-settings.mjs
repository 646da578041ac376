#!/usr/bin/env node
// Reads `azd env get-values --output json` on stdin and writes loadgen's Azure settings:
//   <out>/loadgen.settings.json  setting names exactly as docs/conventions.md spells them, so
//                                loadgen, verify and devhost bind one set of names everywhere
//   <out>/azure.env              the same as `export NAME='value'` lines for a shell
// <out> defaults to .pipeline/azure (git-ignored). Usage: ... | node write-loadgen-settings.mjs [--out DIR]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// Setting name (conventions) <- azd output name (infra/main.bicep).
export const settingSources = {
  EventHubConnection__fullyQualifiedNamespace: 'EVENTHUBS_FULLY_QUALIFIED_NAMESPACE',
  IngestionHubName: 'INGESTION_HUB_NAME',
  Cosmos__AccountEndpoint: 'COSMOS_ACCOUNT_ENDPOINT',
  Cosmos__DatabaseName: 'COSMOS_DATABASE_NAME',
  Cosmos__ReadingsContainer: 'COSMOS_READINGS_CONTAINER',
  Cosmos__DevicesContainer: 'COSMOS_DEVICES_CONTAINER',
  Cosmos__ArchiveContainer: 'COSMOS_ARCHIVE_CONTAINER',
  Cosmos__DeadLettersContainer: 'COSMOS_DEADLETTERS_CONTAINER',
  AZURE_TENANT_ID: 'AZURE_TENANT_ID',
};

// Each sensor kind's hub setting -> its hub: main.bicep names the processor hubs from the same file, so they are no
// azd outputs (core/SensorPipeline.Core/sensor-kinds.json, docs/adding-a-sensor-kind.md).
const sensorKindsFile = new URL('../../core/SensorPipeline.Core/sensor-kinds.json', import.meta.url);
export const kindHubSettings = Object.fromEntries(
  JSON.parse(fs.readFileSync(sensorKindsFile, 'utf8')).kinds.map((kind) => [kind.hubSetting, kind.hub]));

const secretLike = /(SharedAccessKey|AccountKey|AuthKey|SharedAccessSignature|primaryMasterKey)/i;

/** Maps azd values to settings; throws naming every missing or suspicious output. */
export function toSettings(values) {
  const missing = Object.values(settingSources).filter((key) => typeof values[key] !== 'string' || values[key] === '');
  if (missing.length > 0) {
    throw new Error(`azd env get-values lacks ${missing.join(', ')}: run \`azd provision\` first (outputs of infra/main.bicep)`);
  }
  const settings = {};
  for (const [name, key] of Object.entries(settingSources)) {
    if (secretLike.test(values[key])) throw new Error(`${key} looks like it holds a key; refusing to write it to disk`);
    settings[name] = values[key];
  }
  return { ...settings, ...kindHubSettings };
}

const shellQuote = (value) => `'${value.replaceAll("'", "'\\''")}'`;

function main(argv) {
  const outIndex = argv.indexOf('--out');
  const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
  const outDir = outIndex >= 0 ? path.resolve(argv[outIndex + 1]) : path.join(repoRoot, '.pipeline', 'azure');
  const input = fs.readFileSync(0, 'utf8');
  let values;
  try {
    values = JSON.parse(input);
  } catch (error) {
    throw new Error(`stdin is not the JSON of \`azd env get-values --output json\`: ${error.message}`);
  }
  const settings = toSettings(values);
  fs.mkdirSync(outDir, { recursive: true });
  const jsonPath = path.join(outDir, 'loadgen.settings.json');
  const envPath = path.join(outDir, 'azure.env');
  fs.writeFileSync(jsonPath, `${JSON.stringify(settings, null, 2)}\n`);
  fs.writeFileSync(envPath, Object.entries(settings).map(([k, v]) => `export ${k}=${shellQuote(v)}`).join('\n') + '\n');
  process.stdout.write(`wrote ${path.relative(process.cwd(), jsonPath)} and ${path.relative(process.cwd(), envPath)} (names and endpoints only; sign in with az login)\n`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    main(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`write-loadgen-settings: ${error.message}\n`);
    process.exit(1);
  }
}
