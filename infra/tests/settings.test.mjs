// Every setting name agrees between docs/conventions.md, functions/*/function.json, host.json
// and the Function App's app settings in the Bicep.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { getPath, literal, loadInfraBicepFiles, objectProps, repoRoot } from './lib/bicep-tree.mjs';
import { sensorKindsFile } from './lib/bicep-cli.mjs';
import { appSettings } from './lib/checks.mjs';

const files = loadInfraBicepFiles();
const byRel = (rel) => files.find((f) => f.rel === rel);
const main = byRel('infra/main.bicep');
const functionAppFile = byRel('infra/app/functionapp.bicep');
const cosmosFile = byRel('infra/app/cosmos.bicep');
// The sensor kinds main.bicep loads: each kind's hub setting is generated (map(processors, …) in functionapp.bicep), so
// it is no literal here; sensor-kinds.test.mjs checks the compiler's evaluation of it.
const sensorKinds = JSON.parse(fs.readFileSync(sensorKindsFile, 'utf8')).kinds;
const settings = appSettings(files);
// Each function names its consumer group by the app setting <function>ConsumerGroup (function.json's %…%).
const consumerGroupSetting = (fn) => `${fn}ConsumerGroup`;
const settingNames = [...settings.map((s) => s.name), ...sensorKinds.flatMap((k) => [k.hubSetting, consumerGroupSetting(k.processor)])];
const setting = (name) => settings.find((s) => s.name === name);
const mainVar = (name) => literal(main.vars.find((v) => v.name === name)?.valueNode);
const paramDefault = (file, name) => literal(file.params.find((p) => p.name === name)?.defaultNode);

// ---- docs/conventions.md -------------------------------------------------------------------

const conventionsPath = path.join(repoRoot, 'docs/conventions.md');
const conventions = fs.readFileSync(conventionsPath, 'utf8');
const section = (title) => {
  const start = conventions.indexOf(`## ${title}`);
  assert.ok(start >= 0, `docs/conventions.md has no "## ${title}" section`);
  const end = conventions.indexOf('\n## ', start + 3);
  return conventions.slice(start, end < 0 ? undefined : end);
};
const tableRows = (text) => text.split('\n').filter((l) => l.startsWith('| `')).map((l) => l.split('|').slice(1, -1).map((c) => c.trim()));
const ticks = (cell) => [...cell.matchAll(/`([^`]*)`/g)].map((m) => m[1]);

// Handler settings: name, default, meaning.
const handlerSettings = tableRows(section('Handler settings')).map(([name, def, meaning]) => ({
  name: ticks(name)[0],
  default: ticks(def)[0],
  meaning,
}));
// Hubs: %Setting% → default hub, %Setting% → default consumer group, function: the ingestion hub's row, then one per
// sensor kind.
const ingestionRows = tableRows(section('Hubs and consumer groups')).map(([hub, group, fn]) => ({
  setting: ticks(hub)[0].replaceAll('%', ''),
  hub: ticks(hub)[1],
  consumerGroupSetting: ticks(group)[0].replaceAll('%', ''),
  consumerGroup: ticks(group)[1],
  function: ticks(fn)[0],
}));
const hubRows = [...ingestionRows, ...sensorKinds.map((k) => ({
  setting: k.hubSetting, hub: k.hub, consumerGroupSetting: consumerGroupSetting(k.processor), consumerGroup: k.consumerGroup, function: k.processor,
}))];
const azureConnectionSettings = [...new Set(section('Hubs and consumer groups').match(/EventHubConnection__\w+/g))];

// Settings that must NOT be app settings in Azure, and why.
const localOnly = new Set(['Cosmos__AuthKey']); // the emulator key; Azure uses the identity
const fromRuntimeConfig = new Set(['FUNCTIONS_WORKER_RUNTIME']); // Flex takes it from functionAppConfig.runtime

// ---- functions/*/function.json and host.json (read when they exist) -------------------------

const functionsDir = path.join(repoRoot, 'functions');
const functionJsons = fs.existsSync(functionsDir)
  ? fs.readdirSync(functionsDir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && fs.existsSync(path.join(functionsDir, d.name, 'function.json')))
    .map((d) => ({ name: d.name, file: `functions/${d.name}/function.json`, json: JSON.parse(fs.readFileSync(path.join(functionsDir, d.name, 'function.json'), 'utf8')) }))
  : [];
const hostJsonPath = path.join(repoRoot, 'host.json');
const hostJsonText = fs.existsSync(hostJsonPath) ? fs.readFileSync(hostJsonPath, 'utf8') : '';
const percentNames = (text) => [...text.matchAll(/%([A-Za-z0-9_]+)%/g)].map((m) => m[1]);

/** Settings that function.json files and host.json need but the Bicep does not set. */
function unsetFunctionSettings(functions, hostText) {
  const required = new Set(percentNames(hostText));
  for (const fn of functions) {
    for (const name of percentNames(JSON.stringify(fn.json))) required.add(name);
    for (const binding of fn.json.bindings ?? []) {
      // An identity-based connection is the three __ settings, never the bare name.
      if (binding.connection) {
        for (const suffix of ['fullyQualifiedNamespace', 'credential', 'clientId']) required.add(`${binding.connection}__${suffix}`);
      }
    }
  }
  return [...required].filter((n) => !settingNames.includes(n));
}

/** Triggers whose hub or consumer group differs from the conventions (and so from the Bicep): the consumer group is
 * the app-setting expression of the hub's row, never a literal, so a local run can read with groups of its own. */
function consumerGroupProblems(functions) {
  const rowOfHub = new Map(hubRows.map((h) => [h.setting, h]));
  const problems = [];
  for (const fn of functions) {
    for (const binding of (fn.json.bindings ?? []).filter((b) => b.type === 'eventHubTrigger')) {
      const row = rowOfHub.get(String(binding.eventHubName ?? '').replaceAll('%', ''));
      if (!row) problems.push(`${fn.file}: eventHubName ${binding.eventHubName} is not a conventions hub setting`);
      else if (binding.consumerGroup !== `%${row.consumerGroupSetting}%`) problems.push(`${fn.file}: consumer group ${binding.consumerGroup}, expected %${row.consumerGroupSetting}% (${row.consumerGroup})`);
    }
  }
  return problems;
}

describe('app settings agree with docs/conventions.md, function.json and host.json', () => {
  it('reads the conventions tables', () => {
    assert.ok(handlerSettings.length >= 14, `only ${handlerSettings.length} handler settings parsed from docs/conventions.md`);
    assert.deepEqual(ingestionRows.map((r) => r.hub), ['ingestion'], 'the conventions table lists the ingestion hub; the kinds come from sensor-kinds.json');
    assert.deepEqual(azureConnectionSettings.sort(), ['EventHubConnection__clientId', 'EventHubConnection__credential', 'EventHubConnection__fullyQualifiedNamespace']);
  });

  it('sets every handler setting the conventions list, except the local-only and runtime ones', () => {
    const missing = handlerSettings.map((s) => s.name).filter((n) => !localOnly.has(n) && !fromRuntimeConfig.has(n) && !settingNames.includes(n));
    assert.deepEqual(missing, [], `not set in ${functionAppFile.rel}: ${missing.join(', ')}`);
  });

  it('sets the identity-based Event Hubs connection, the hub name and the consumer group settings', () => {
    const required = [...azureConnectionSettings, ...hubRows.flatMap((h) => [h.setting, h.consumerGroupSetting])];
    assert.deepEqual(required.filter((n) => !settingNames.includes(n)), []);
  });

  it('sets every %NAME% and connection that function.json and host.json use (when present)', () => {
    const missing = unsetFunctionSettings(functionJsons, hostJsonText);
    assert.deepEqual(missing, [], `used by function.json/host.json but not set: ${missing.join(', ')}`);
  });

  it('leaves local-only settings unset (Cosmos__AuthKey: identity in Azure)', () => {
    for (const name of localOnly) assert.ok(!settingNames.includes(name), `${name} must not be set in Azure`);
  });

  it('gives the handler FUNCTIONS_WORKER_RUNTIME=custom through functionAppConfig.runtime, not an app setting', () => {
    assert.ok(!settingNames.includes('FUNCTIONS_WORKER_RUNTIME'), 'Flex Consumption rejects FUNCTIONS_WORKER_RUNTIME as an app setting');
    const site = functionAppFile.resources.find((r) => r.type.startsWith('Microsoft.Web/sites@'));
    const expected = handlerSettings.find((s) => s.name === 'FUNCTIONS_WORKER_RUNTIME').default;
    assert.equal(literal(getPath(site.body, 'properties.functionAppConfig.runtime.name')), expected);
    assert.equal(literal(getPath(site.body, 'properties.functionAppConfig.runtime.version')), '1.0');
  });

  it('sets the batch size one way, in host.json: no app setting overrides its Event Hubs section', () => {
    // The host reads AzureFunctionsJobHost__extensions__eventHubs__* over host.json (the handler honours it too, and
    // refuses to start past its limit); the project sets batching only in the packaged host.json.
    assert.deepEqual(settingNames.filter((n) => /^AzureFunctionsJobHost__extensions__eventHubs__/i.test(n ?? '')), []);
  });

  it('sets no setting twice', () => {
    const dupes = settingNames.filter((n, i) => settingNames.indexOf(n) !== i);
    assert.deepEqual(dupes, []);
  });

  it('uses the identity for every connection', () => {
    assert.equal(literal(setting('EventHubConnection__credential').valueNode), 'managedidentity');
    assert.equal(literal(setting('AzureWebJobsStorage__credential').valueNode), 'managedidentity');
    for (const name of ['EventHubConnection__clientId', 'AzureWebJobsStorage__clientId', 'Cosmos__ManagedIdentityClientId']) {
      assert.equal(setting(name).valueNode.text, 'identityClientId', `${name} must be the app identity's client id`);
    }
    assert.equal(setting('APPLICATIONINSIGHTS_AUTHENTICATION_STRING').valueNode.text, "'Authorization=AAD;ClientId=${identityClientId}'");
    assert.ok(settingNames.includes('AzureWebJobsStorage__blobServiceUri') || settingNames.includes('AzureWebJobsStorage__accountName'), 'host storage needs a service URI or account name');
  });

  it('keeps container creation off in Azure (the infra creates the containers)', () => {
    assert.equal(literal(setting('Cosmos__CreateIfNotExists').valueNode), 'false');
  });

  it('uses the conventions defaults for hubs, consumer groups, database and containers', () => {
    // The kinds' hubs come from sensor-kinds.json (their evaluation: sensor-kinds.test.mjs); the ingestion hub is a var.
    assert.equal(mainVar('ingestionHubName'), ingestionRows[0].hub);
    assert.equal(mainVar('splitterConsumerGroup'), ingestionRows[0].consumerGroup);
    assert.equal(setting(ingestionRows[0].consumerGroupSetting).valueNode.text, 'splitterConsumerGroup', 'the splitter reads with the group main.bicep creates');
    assert.match(main.text, /loadJsonContent\('\.\.\/core\/SensorPipeline\.Core\/sensor-kinds\.json'\)\.kinds/);

    const cosmosVarFor = {
      Cosmos__DatabaseName: 'cosmosDatabaseName',
      Cosmos__ReadingsContainer: 'readingsContainerName',
      Cosmos__DevicesContainer: 'devicesContainerName',
      Cosmos__ArchiveContainer: 'archiveContainerName',
      Cosmos__DeadLettersContainer: 'deadLettersContainerName',
    };
    for (const [settingName, varName] of Object.entries(cosmosVarFor)) {
      const expected = handlerSettings.find((s) => s.name === settingName).default;
      assert.equal(mainVar(varName), expected, `${varName} in main.bicep vs ${settingName} in docs/conventions.md`);
    }
  });

  it('uses the conventions defaults for the pipeline settings', () => {
    const def = (name) => handlerSettings.find((s) => s.name === name).default;
    assert.equal(paramDefault(main, 'pipelineMaxAge'), def('Pipeline__MaxAge'));
    assert.equal(String(paramDefault(main, 'writeParallelism')), def('Pipeline__WriteParallelism'));
  });

  it('creates every container with the partition key the conventions give', () => {
    const containers = cosmosFile.vars.find((v) => v.name === 'containers').valueNode.namedChildren.map((o) => {
      const props = objectProps(o);
      return { name: paramDefault(cosmosFile, props.get('name').text), partitionKey: literal(props.get('partitionKey')), policy: literal(props.get('policy')) };
    });
    for (const settingName of ['Cosmos__ReadingsContainer', 'Cosmos__DevicesContainer', 'Cosmos__ArchiveContainer', 'Cosmos__DeadLettersContainer']) {
      const row = handlerSettings.find((s) => s.name === settingName);
      const expectedPk = row.meaning.match(/pk `([^`]+)`/)?.[1];
      assert.ok(expectedPk, `docs/conventions.md gives no partition key for ${settingName}`);
      const container = containers.find((c) => c.name === row.default);
      assert.ok(container, `${row.default} (${settingName}) is not created by ${cosmosFile.rel}`);
      assert.equal(container.partitionKey, expectedPk, `${row.default} partition key`);
    }
    // conventions.md gives the readings' spatial index path; indexing-policies.json, which cosmos.bicep loads, holds it.
    const policies = JSON.parse(fs.readFileSync(path.join(repoRoot, 'infra/app/indexing-policies.json'), 'utf8'));
    const readings = containers.find((c) => c.name === 'readings');
    assert.deepEqual(policies[readings.policy].spatialIndexes.map((s) => s.path), ['/geometry/*'], 'readings needs the spatial index on its geometry');
  });

  it('creates the consumer group each function.json reads with (when present)', () => {
    assert.deepEqual(consumerGroupProblems(functionJsons), []);
  });

  it('names each function for always-ready instances as the conventions and function folders do', () => {
    // The splitter and one processor per kind: functionapp.bicep builds the list from main.bicep's processors.
    assert.equal(functionAppFile.vars.find((v) => v.name === 'functionNames').valueNode.text, "concat(['Splitter'], map(processors, p => p.function))");
    const names = hubRows.map((h) => h.function);
    for (const fn of functionJsons) assert.ok(names.includes(fn.name), `functions/${fn.name} is missing from functionNames in ${functionAppFile.rel}`);
  });
});

// function.json files may not exist yet: prove the checks bite on samples shaped like them.
describe('the function.json checks catch what they guard against', () => {
  const trigger = (name, hub, group, extra = {}) => ({
    name,
    file: `functions/${name}/function.json`,
    json: { bindings: [{ type: 'eventHubTrigger', name: 'events', direction: 'in', eventHubName: hub, consumerGroup: group, connection: 'EventHubConnection', cardinality: 'many', dataType: 'binary' }, ...(extra.outputs ?? [])] },
  });
  const good = [
    trigger('Splitter', '%IngestionHubName%', '%SplitterConsumerGroup%', { outputs: [{ type: 'eventHub', name: 'weather', direction: 'out', eventHubName: '%WeatherHubName%', connection: 'EventHubConnection' }] }),
    trigger('WeatherProcessor', '%WeatherHubName%', '%WeatherProcessorConsumerGroup%'),
    trigger('SeismicProcessor', '%SeismicHubName%', '%SeismicProcessorConsumerGroup%'),
  ];

  it('accepts function.json files that follow the conventions', () => {
    assert.deepEqual(unsetFunctionSettings(good, '{"customHandler": {"description": {"arguments": ["%Pipeline__MaxAge%"]}}}'), []);
    assert.deepEqual(consumerGroupProblems(good), []);
  });

  it('reports a %NAME%, a connection or a host.json setting the Bicep does not set', () => {
    const bad = [trigger('Splitter', '%IngestionHub%', '%SplitterGroup%'), { ...trigger('X', '%WeatherHubName%', 'weather-processor'), json: { bindings: [{ type: 'eventHubTrigger', eventHubName: '%WeatherHubName%', consumerGroup: 'weather-processor', connection: 'OtherConnection' }] } }];
    assert.deepEqual(unsetFunctionSettings(bad, '"%HostOnlySetting%"').sort(), ['HostOnlySetting', 'IngestionHub', 'OtherConnection__clientId', 'OtherConnection__credential', 'OtherConnection__fullyQualifiedNamespace', 'SplitterGroup']);
  });

  it('reports a consumer group the infra does not create', () => {
    assert.equal(consumerGroupProblems([trigger('WeatherProcessor', '%WeatherHubName%', '$Default')]).length, 1);
  });

  it('reports a consumer group named literally, even the right one (a local run could not replace it)', () => {
    assert.deepEqual(consumerGroupProblems([trigger('WeatherProcessor', '%WeatherHubName%', 'weather-processor')]),
      ['functions/WeatherProcessor/function.json: consumer group weather-processor, expected %WeatherProcessorConsumerGroup% (weather-processor)']);
  });
});
