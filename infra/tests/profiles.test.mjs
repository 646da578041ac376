// The named profiles, evaluated as a deployment would receive them: infra/profiles/<name>.env is what an azd
// environment holds (dev: the template's defaults; 100k: what `./pipeline plan --rate 100000 --azd` writes, kept equal
// to the planner by SensorPipeline.Plan.Tests), turned into parameters through main.parameters.json as azd does, then
// evaluated by `bicep snapshot`. The capacity checks compare what the template would deploy with the demand the plan
// wrote into the profile ("# demand NAME=value" lines). The packaged host.json gets the profile's batching values.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { bicepPath, compiledTemplate, repoRoot, sensorKindsFile, snapshot } from './lib/bicep-cli.mjs';
import { limits, packagedHostJson } from '../scripts/package-host-json.mjs';
import { privacyProblems } from './lib/network.mjs';

const template = compiledTemplate();
const parametersFile = JSON.parse(readFileSync(join(repoRoot, 'infra/main.parameters.json'), 'utf8'));
const azdProvides = { AZURE_ENV_NAME: 'profile', AZURE_LOCATION: 'eastus', AZURE_PRINCIPAL_ID: '11111111-1111-1111-1111-111111111111' };

/** KEY="value" lines and "# demand NAME=value" comments of a profile file. */
function readProfile(name) {
  const text = readFileSync(join(repoRoot, 'infra/profiles', `${name}.env`), 'utf8');
  const values = Object.fromEntries([...text.matchAll(/^([A-Z_][A-Z0-9_]*)="?([^"\n]*)"?$/gm)].map((m) => [m[1], m[2]]));
  const demand = Object.fromEntries([...text.matchAll(/^# demand ([A-Z_]+)=([\d.]+)$/gm)].map((m) => [m[1], Number(m[2])]));
  return { values, demand };
}

/** The template parameters azd passes for an environment: main.parameters.json's ${NAME=default} substituted. */
function parametersFor(env) {
  const params = {};
  for (const [name, entry] of Object.entries(parametersFile.parameters)) {
    const text = String(entry.value).replace(/\$\{(\w+)(?:=([^}]*))?\}/g, (_, key, fallback) => env[key] ?? azdProvides[key] ?? fallback ?? '');
    const type = template.parameters[name].type.toLowerCase();
    params[name] = type === 'int' ? Number(text) : type === 'bool' ? text === 'true' : text;
  }
  return params;
}

const profiles = { dev: readProfile('dev'), '100k': readProfile('100k'), '100k-private': readProfile('100k-private') };
const [dev, big, closed] = await Promise.all([
  snapshot(parametersFor(profiles.dev.values)),
  snapshot(parametersFor(profiles['100k'].values)),
  snapshot(parametersFor(profiles['100k-private'].values)),
]);
const ofType = (result, type) => result.resources.filter((r) => r.type === type);
const containers = (result) => Object.fromEntries(ofType(result, 'Microsoft.DocumentDB/databaseAccounts/sqlDatabases/containers').map((c) => [c.properties.resource.id, c]));

describe('profiles compile', () => {
  it('evaluates dev, 100k and 100k-private without a diagnostic', () => {
    assert.ok(dev.ok, dev.output);
    assert.ok(big.ok, big.output);
    assert.ok(closed.ok, closed.output);
    assert.equal(profiles['100k'].values.PIPELINE_PROFILE, 'plan-100000');
    assert.equal(profiles['100k-private'].values.PIPELINE_PROFILE, 'plan-100000-private');
  });

  it('lints each profile as a .bicepparam file against main.bicep', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sensorpipeline-profile-'));
    try {
      for (const [name, profile] of Object.entries(profiles)) {
        const file = join(dir, `${name}.bicepparam`);
        const params = parametersFor(profile.values);
        const literal = (v) => (typeof v === 'string' ? `'${v.replaceAll("'", "\\'")}'` : String(v));
        writeFileSync(file, [`using '${relative(dir, join(repoRoot, 'infra/main.bicep'))}'`, ...Object.entries(params).map(([k, v]) => `param ${k} = ${literal(v)}`)].join('\n') + '\n');
        const output = execFileSync(bicepPath(), ['lint', file], { cwd: repoRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
        assert.doesNotMatch(output, / : (Error|Warning|Info) /, `${name}: ${output}`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('every profile', () => {
  for (const [name, result] of [['dev', () => dev], ['100k', () => big], ['100k-private', () => closed]]) {
    it(`${name}: sends no per-request log (Cosmos DB DataPlaneRequests, Storage reads and writes off)`, () => {
      const settings = ofType(result(), 'Microsoft.Insights/diagnosticSettings');
      const workbook = settings.find((s) => s.name === 'workbook-logs' && /DocumentDB/.test(s.id));
      assert.equal(workbook.properties.logs.find((l) => l.category === 'DataPlaneRequests').enabled, false);
      const storage = settings.filter((s) => /Microsoft\.Storage\//.test(s.id));
      assert.equal(storage.length, 3, 'blob, queue and table');
      for (const s of storage) assert.deepEqual(s.properties.logs.filter((l) => l.enabled).map((l) => l.category), ['StorageDelete'], s.id);
    });

    it(`${name}: expires archived readings (TTL on archive) and readings, never dead letters`, () => {
      const c = containers(result());
      assert.ok(c.archive.properties.resource.defaultTtl > 0, 'archive has no TTL');
      assert.ok(c.readings.properties.resource.defaultTtl > 0);
      assert.equal(c.deadletters.properties.resource.defaultTtl, undefined);
    });

    it(`${name}: puts no throughput on the database (no budget the containers share)`, () => {
      const database = ofType(result(), 'Microsoft.DocumentDB/databaseAccounts/sqlDatabases')[0];
      assert.deepEqual(database.properties.options ?? {}, {});
    });
  }

  it('dev sends partition heat (the workbook chart); 100k does not: per key per second, nearly a row per request there', () => {
    const heat = (result) => ofType(result, 'Microsoft.Insights/diagnosticSettings').find((s) => s.name === 'workbook-logs')
      .properties.logs.find((l) => l.category === 'PartitionKeyRUConsumption').enabled;
    assert.equal(heat(dev), true);
    assert.equal(heat(big), false);
    assert.equal(profiles['100k'].values.COSMOS_PARTITION_KEY_LOGS, 'false');
  });

  it('dev is serverless (it caps near 1,000 readings/s, and its profile file says so)', () => {
    const account = ofType(dev, 'Microsoft.DocumentDB/databaseAccounts')[0];
    assert.deepEqual(account.properties.capabilities, [{ name: 'EnableServerless' }]);
    assert.match(readFileSync(join(repoRoot, 'infra/profiles/dev.env'), 'utf8'), /caps near 1,000 readings\/s/);
  });
});

describe('100k: capacity >= the plan\'s demand', () => {
  const { values, demand } = profiles['100k'];
  const c = containers(big);

  it('gives each container its own throughput: manual readings and devices, autoscale archive and deadletters', () => {
    assert.equal(c.readings.properties.options.throughput, Number(values.COSMOS_READINGS_THROUGHPUT));
    assert.equal(c.devices.properties.options.throughput, Number(values.COSMOS_DEVICES_THROUGHPUT));
    assert.equal(c.archive.properties.options.autoscaleSettings.maxThroughput, Number(values.COSMOS_ARCHIVE_AUTOSCALE_MAX));
    assert.equal(c.deadletters.properties.options.autoscaleSettings.maxThroughput, Number(values.COSMOS_DEADLETTERS_AUTOSCALE_MAX));
    assert.deepEqual(ofType(big, 'Microsoft.DocumentDB/databaseAccounts')[0].properties.capabilities, []);
  });

  it('Cosmos DB: readings and devices RU/s at or above the demand', () => {
    assert.ok(demand.COSMOS_READINGS_RU > 0 && demand.COSMOS_DEVICES_RU > 0, 'the profile states its demand');
    assert.ok(c.readings.properties.options.throughput >= demand.COSMOS_READINGS_RU);
    assert.ok(c.devices.properties.options.throughput >= demand.COSMOS_DEVICES_RU);
  });

  it('Event Hubs: throughput units carry the bytes and events in (1 MB/s and 1,000 events/s each)', () => {
    const namespace = ofType(big, 'Microsoft.EventHub/namespaces')[0];
    assert.equal(namespace.sku.name, values.EVENTHUBS_SKU);
    const tu = namespace.sku.capacity;
    assert.ok(tu >= demand.EVENTHUBS_INGRESS_MBPS, `${tu} TU < ${demand.EVENTHUBS_INGRESS_MBPS} MB/s`);
    assert.ok(tu * 1000 >= demand.EVENTHUBS_INGRESS_EVENTS_PER_SECOND);
    for (const hub of ofType(big, 'Microsoft.EventHub/namespaces/eventhubs')) assert.equal(hub.properties.partitionCount, Number(values.EVENTHUBS_PARTITION_COUNT));
  });

  it('Functions: always-ready cores per function at or above its CPU demand, room to scale past them', () => {
    const app = ofType(big, 'Microsoft.Web/sites')[0];
    const scale = app.properties.functionAppConfig.scaleAndConcurrency;
    const cores = scale.instanceMemoryMB / 2048;
    const ready = Object.fromEntries(scale.alwaysReady.map((a) => [a.name, a.instanceCount]));
    assert.ok(ready['function:Splitter'] * cores >= demand.FUNCTIONS_SPLITTER_VCPU);
    const processors = JSON.parse(readFileSync(sensorKindsFile, 'utf8')).kinds.map((k) => `function:${k.processor}`);
    for (const processor of processors) assert.ok(ready[processor] * cores >= demand.FUNCTIONS_PROCESSOR_VCPU, processor);
    assert.ok(scale.maximumInstanceCount >= Object.values(ready).reduce((a, b) => a + b, 0));
  });

  it('packages host.json with the profile\'s batching and target-based scaling', () => {
    const hostJson = JSON.parse(readFileSync(join(repoRoot, 'host.json'), 'utf8'));
    const eventHubs = packagedHostJson(hostJson, values).extensions.eventHubs;
    assert.equal(eventHubs.maxEventBatchSize, Number(values.HOST_EVENTHUBS_MAX_EVENT_BATCH_SIZE));
    assert.equal(eventHubs.targetUnprocessedEventThreshold, Number(values.HOST_EVENTHUBS_TARGET_UNPROCESSED_EVENT_THRESHOLD));
    assert.equal(eventHubs.maxWaitTime, values.HOST_EVENTHUBS_MAX_WAIT_TIME);
    assert.deepEqual(packagedHostJson(hostJson, {}), hostJson, 'without a profile the package keeps host.json');
  });

  it('takes the largest batch size from the handler\'s limits, and host.json stays within it', () => {
    const fromFile = JSON.parse(readFileSync(join(repoRoot, 'core/SensorPipeline.Core/limits.json'), 'utf8'));
    assert.equal(limits.maxEventBatchSize, fromFile.maxEventBatchSize.value);
    assert.equal(limits.eventHubMaxEventBytes, 1024 * 1024);
    const hostJson = JSON.parse(readFileSync(join(repoRoot, 'host.json'), 'utf8'));
    assert.ok(hostJson.extensions.eventHubs.maxEventBatchSize <= limits.maxEventBatchSize);
    const packaged = packagedHostJson(hostJson, { HOST_EVENTHUBS_MAX_EVENT_BATCH_SIZE: String(limits.maxEventBatchSize) });
    assert.equal(packaged.extensions.eventHubs.maxEventBatchSize, limits.maxEventBatchSize);
  });

  it('refuses a bad batching value, naming the variable (the check can fail)', () => {
    const hostJson = JSON.parse(readFileSync(join(repoRoot, 'host.json'), 'utf8'));
    const past = String(limits.maxEventBatchSize + 1);
    assert.throws(() => packagedHostJson(hostJson, { HOST_EVENTHUBS_MAX_EVENT_BATCH_SIZE: past }),
      new RegExp(`HOST_EVENTHUBS_MAX_EVENT_BATCH_SIZE='${past}'.*from 1 to ${limits.maxEventBatchSize}`));
    assert.throws(() => packagedHostJson(hostJson, { HOST_EVENTHUBS_MIN_EVENT_BATCH_SIZE: '8' }), /minEventBatchSize 8 is above maxEventBatchSize 2/);
  });
});

describe('100k-private: the 100k capacity, every data plane private', () => {
  it('makes every data plane private (public access off, a private endpoint, its zone linked) where 100k keeps them public', () => {
    assert.equal(profiles['100k-private'].values.NETWORK_ISOLATION, 'private');
    assert.equal(profiles['100k'].values.NETWORK_ISOLATION, 'public');
    assert.deepEqual(privacyProblems(closed), []);
    assert.deepEqual(privacyProblems(big), ['no virtual network']);
  });

  it('deploys the same capacity as 100k: only the network differs', () => {
    const capacity = (values) => Object.fromEntries(Object.entries(values).filter(([k]) => !['PIPELINE_PROFILE', 'NETWORK_ISOLATION'].includes(k)));
    assert.deepEqual(capacity(profiles['100k-private'].values), capacity(profiles['100k'].values));
  });

  it('sizes the app subnet for the profile\'s maximum instances (twice, plus the 5 addresses Azure keeps)', () => {
    const vnet = ofType(closed, 'Microsoft.Network/virtualNetworks')[0];
    const prefix = Number(vnet.properties.subnets.find((s) => s.name === 'app').properties.addressPrefix.split('/')[1]);
    assert.ok(2 ** (32 - prefix) >= 2 * Number(profiles['100k-private'].values.FUNCTIONS_MAXIMUM_INSTANCE_COUNT) + 5);
  });
});
