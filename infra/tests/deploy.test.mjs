// What a deployment would create, read from the compiler: `bicep snapshot` evaluates infra/main.bicep for a
// parameter set as ARM would (modules expanded, names, scopes and conditions resolved, fail() raised), so these
// tests see the role scopes, the diagnostic setting and the container settings Azure would receive, and see a bad
// parameter combination rejected. The compiler's own checks (types, properties, lint) are the gate in ./pipeline.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { repoRoot, snapshot } from './lib/bicep-cli.mjs';
import { assignmentScope, builtInRoles } from './lib/roles.mjs';

const deployer = '11111111-1111-1111-1111-111111111111';
const base = { environmentName: 'test', location: 'westeurope', principalId: deployer };

// All cases at once: each snapshot is a separate compiler process.
const [defaults, premium, standard64, premium3, ttlZero] = await Promise.all([
  snapshot(base),
  snapshot({ ...base, eventHubsSku: 'Premium', eventHubsPartitionCount: 100, eventHubsCapacity: 16, readingsTtlSeconds: -1 }),
  snapshot({ ...base, eventHubsSku: 'Standard', eventHubsPartitionCount: 64 }),
  snapshot({ ...base, eventHubsSku: 'Premium', eventHubsCapacity: 3 }),
  snapshot({ ...base, readingsTtlSeconds: 0 }),
]);
const noDeployer = await snapshot({ ...base, principalId: '' });
const premiumSizes = await Promise.all([6, 10, 12].map((pu) => snapshot({ ...base, eventHubsSku: 'Premium', eventHubsCapacity: pu })));

const ofType = (result, type) => result.resources.filter((r) => r.type === type);

describe('parameter rules the decorators cannot express', () => {
  it('accepts the defaults, and Premium with 100 partitions, 16 processing units and TTL -1', () => {
    assert.ok(defaults.ok, defaults.output);
    assert.ok(premium.ok, premium.output);
    const hubs = ofType(premium, 'Microsoft.EventHub/namespaces/eventhubs');
    assert.equal(hubs.length, 3);
    for (const hub of hubs) assert.equal(hub.properties.partitionCount, 100, hub.name);
    assert.equal(ofType(premium, 'Microsoft.EventHub/namespaces')[0].sku.capacity, 16);
    for (const hub of ofType(defaults, 'Microsoft.EventHub/namespaces/eventhubs')) assert.equal(hub.properties.partitionCount, 32, hub.name);
  });

  it('rejects more than 32 partitions per hub on Standard, naming the parameter', () => {
    assert.equal(standard64.ok, false);
    assert.match(standard64.output, /eventHubsPartitionCount \(EVENTHUBS_PARTITION_COUNT\) is 64: Event Hubs Standard allows at most 32/);
  });

  it('rejects a Premium capacity the docs do not list (1, 2, 4, 6, 8, 10, 12, 16), and takes 6, 10 and 12', () => {
    assert.equal(premium3.ok, false);
    assert.match(premium3.output, /eventHubsCapacity \(EVENTHUBS_CAPACITY\) is 3: Event Hubs Premium takes 1, 2, 4, 6, 8, 10, 12 or 16/);
    for (const result of premiumSizes) assert.ok(result.ok, result.output);
    assert.deepEqual(premiumSizes.map((r) => ofType(r, 'Microsoft.EventHub/namespaces')[0].sku.capacity), [6, 10, 12]);
  });

  it('rejects a readings TTL of 0, which Cosmos DB refuses, and passes -1 and positive values through', () => {
    assert.equal(ttlZero.ok, false);
    assert.match(ttlZero.output, /readingsTtlSeconds is 0: Cosmos DB takes -1/);
    const readings = (result) => ofType(result, 'Microsoft.DocumentDB/databaseAccounts/sqlDatabases/containers').find((c) => c.properties.resource.id === 'readings');
    assert.equal(readings(defaults).properties.resource.defaultTtl, 604800);
    assert.equal(readings(premium).properties.resource.defaultTtl, -1);
  });
});

describe('containers', () => {
  it('index the GeoJSON geometry of readings only (the spatial query\'s container) with a spatial path ending in /*', () => {
    const containers = ofType(defaults, 'Microsoft.DocumentDB/databaseAccounts/sqlDatabases/containers');
    const spatial = Object.fromEntries(containers.map((c) => [c.properties.resource.id, c.properties.resource.indexingPolicy.spatialIndexes.map((s) => s.path)]));
    assert.deepEqual(spatial, { readings: ['/geometry/*'], devices: [], archive: [], deadletters: [] });
  });

  it('index no path by default: every container excludes /* and includes only the paths its queries use', () => {
    const containers = ofType(defaults, 'Microsoft.DocumentDB/databaseAccounts/sqlDatabases/containers');
    const included = Object.fromEntries(containers.map((c) => [c.properties.resource.id, c.properties.resource.indexingPolicy.includedPaths.map((p) => p.path)]));
    assert.deepEqual(included, { readings: ['/deviceId/?'], devices: ['/deviceId/?'], archive: ['/deviceId/?'], deadletters: ['/reason/?'] });
    for (const c of containers) assert.deepEqual(c.properties.resource.indexingPolicy.excludedPaths, [{ path: '/*' }], c.properties.resource.id);
  });

  it('deploy the partition keys and indexing policies the emulator tests run the project\'s queries against', () => {
    // tests/SensorPipeline.CosmosEmulator.Tests/DeployedContainers.json is what DeployedPolicyQueryTests creates in the
    // emulator: change a policy here and that file (and so the queries' test) must follow.
    const containers = ofType(defaults, 'Microsoft.DocumentDB/databaseAccounts/sqlDatabases/containers');
    const deployed = Object.fromEntries(containers.map((c) => [c.properties.resource.id,
      { partitionKey: c.properties.resource.partitionKey, indexingPolicy: c.properties.resource.indexingPolicy }]));
    const tested = JSON.parse(readFileSync(join(repoRoot, 'tests/SensorPipeline.CosmosEmulator.Tests/DeployedContainers.json'), 'utf8'));
    assert.deepEqual(deployed, tested);
  });

  it('are the policies the handler creates locally: it embeds the same file (ContainerInitializer)', () => {
    const project = readFileSync(join(repoRoot, 'functions/SensorPipeline.Functions/SensorPipeline.Functions.csproj'), 'utf8');
    assert.match(project, /<EmbeddedResource Include="\.\.\/\.\.\/infra\/app\/indexing-policies\.json"/);
  });
});

// ---- Roles: exactly these grants, on exactly these scopes -----------------------------------------------------

/** A readable name for a scope's resource id. */
function scopeName(id) {
  const rules = [
    [/\/Microsoft\.EventHub\/namespaces\/[^/]+\/eventhubs\/([^/]+)$/, (m) => `hub ${m[1]}`],
    [/\/Microsoft\.EventHub\/namespaces\/[^/]+$/, () => 'the Event Hubs namespace'],
    [/\/Microsoft\.Storage\/storageAccounts\/[^/]+$/, () => 'the storage account'],
    [/\/Microsoft\.Insights\/components\/[^/]+$/, () => 'Application Insights'],
    [/\/Microsoft\.DocumentDB\/databaseAccounts\/[^/]+\/dbs\/([^/]+)\/colls\/([^/]+)$/, (m) => `container ${m[2]} of database ${m[1]}`],
    [/\/Microsoft\.DocumentDB\/databaseAccounts\/[^/]+\/dbs\/([^/]+)$/, (m) => `database ${m[1]}`],
    [/\/Microsoft\.DocumentDB\/databaseAccounts\/[^/]+$/, () => 'the Cosmos DB account'],
    [/\/resourceGroups\/[^/]+$/, () => 'the resource group'],
  ];
  for (const [pattern, name] of rules) {
    const m = id.match(pattern);
    if (m) return name(m);
  }
  return id;
}

/** Every grant of a snapshot as "who: role on scope". */
function grants(result) {
  const list = [];
  for (const r of ofType(result, 'Microsoft.Authorization/roleAssignments')) {
    list.push({ principal: r.properties.principalId, role: r.properties.roleDefinitionId.split('/').pop(), scope: assignmentScope(r) });
  }
  for (const r of ofType(result, 'Microsoft.DocumentDB/databaseAccounts/sqlRoleAssignments')) {
    list.push({ principal: r.properties.principalId, role: r.properties.roleDefinitionId.split('/').pop(), scope: r.properties.scope });
  }
  return list.map((g) => {
    const who = g.principal === deployer ? 'deployer' : /userAssignedIdentities\/id-pipeline-/.test(g.principal) ? 'app' : g.principal;
    return `${who}: ${builtInRoles[g.role] ?? g.role} on ${scopeName(g.scope)}`;
  }).sort();
}

describe('role assignments (least privilege)', () => {
  it('give the app identity exactly what the host and handler use, on the narrowest scope', () => {
    assert.deepEqual(grants(defaults).filter((g) => g.startsWith('app:')), [
      'app: Azure Event Hubs Data Receiver on hub ingestion', // the splitter's trigger
      'app: Azure Event Hubs Data Receiver on hub seismic', // SeismicProcessor's trigger
      'app: Azure Event Hubs Data Receiver on hub weather', // WeatherProcessor's trigger
      'app: Azure Event Hubs Data Sender on hub seismic', // the splitter's output binding
      'app: Azure Event Hubs Data Sender on hub weather', // the splitter's output binding
      'app: Cosmos DB Built-in Data Contributor on database sensorpipeline', // writes readings, devices, archive, dead letters
      'app: Monitoring Metrics Publisher on Application Insights', // Entra-authenticated telemetry
      'app: Storage Blob Data Owner on the storage account', // host leases, checkpoints, the deployment package
      'app: Storage Queue Data Contributor on the storage account', // host bookkeeping
      'app: Storage Table Data Contributor on the storage account', // host bookkeeping
    ].sort());
  });

  it('give the deploying user only what loadgen send, verify and redrive use', () => {
    assert.deepEqual(grants(defaults).filter((g) => g.startsWith('deployer:')), [
      'deployer: Azure Event Hubs Data Sender on hub ingestion', // loadgen send; redrive of splitter letters and readings
      'deployer: Azure Event Hubs Data Sender on hub seismic', // redrive of a seismic-processor envelope
      'deployer: Azure Event Hubs Data Sender on hub weather', // redrive of a weather-processor envelope
      'deployer: Cosmos DB Built-in Data Contributor on container deadletters of database sensorpipeline', // redrive marks what it re-sent
      'deployer: Cosmos DB Built-in Data Reader on database sensorpipeline', // verify's point reads, redrive's query
    ]);
  });

  it('grant no Cosmos DB data role on the whole account (another database there stays out of reach)', () => {
    assert.deepEqual(grants(defaults).filter((g) => / on the Cosmos DB account$/.test(g)), []);
  });

  it('give no grant to a deployer when there is none (principalId empty)', () => {
    assert.ok(noDeployer.ok, noDeployer.output);
    assert.deepEqual(grants(noDeployer).filter((g) => !g.startsWith('app:')), []);
  });

  it('give no one else anything', () => {
    assert.deepEqual(grants(defaults).filter((g) => !g.startsWith('app:') && !g.startsWith('deployer:')), []);
  });
});

// ---- The workbook's tables are fed ----------------------------------------------------------------------------

// Tables of a workspace-based Application Insights component (the handler's metrics, the host's requests/traces).
const appInsightsTables = new Set(['customMetrics', 'customEvents', 'requests', 'dependencies', 'traces', 'exceptions', 'availabilityResults', 'performanceCounters', 'pageViews', 'browserTimings']);
// Cosmos DB's resource-specific tables (logAnalyticsDestinationType Dedicated), by diagnostic category.
const cosmosTables = {
  DataPlaneRequests: 'CDBDataPlaneRequests',
  PartitionKeyRUConsumption: 'CDBPartitionKeyRUConsumption',
  PartitionKeyStatistics: 'CDBPartitionKeyStatistics',
  QueryRuntimeStatistics: 'CDBQueryRuntimeStatistics',
  ControlPlaneRequests: 'CDBControlPlaneRequests',
};

/**
 * The tables a KQL query reads: a name that starts a tabular expression (alone on its line, after `let x =`, or
 * after the `(` of a union leg) and is not a name the query binds with `let`.
 */
function tablesRead(kql) {
  const code = kql.split('\n').map((line) => line.replace(/\/\/.*$/, '')).join('\n');
  const bound = new Set([...code.matchAll(/\blet\s+(\w+)\s*=/g)].map((m) => m[1]));
  const starts = [
    ...code.matchAll(/^\s*\(?\s*([A-Za-z_]\w*)\s*$/gm),
    ...code.matchAll(/\blet\s+\w+\s*=\s*([A-Za-z_]\w*)\s*$/gm),
    ...code.matchAll(/^\s*\(\s*([A-Za-z_]\w*)\b/gm),
  ].map((m) => m[1]);
  return [...new Set(starts.filter((t) => !bound.has(t)))].sort();
}

/** Tables the deployment feeds: Application Insights' own, and each enabled Cosmos DB category sent to the workspace. */
function fedTables(result) {
  const fed = new Set(appInsightsTables);
  const workspace = ofType(result, 'Microsoft.OperationalInsights/workspaces')[0]?.id;
  for (const setting of ofType(result, 'Microsoft.Insights/diagnosticSettings')) {
    if (setting.properties.workspaceId !== workspace || setting.properties.logAnalyticsDestinationType !== 'Dedicated') continue;
    if (!/\/Microsoft\.DocumentDB\/databaseAccounts\/[^/]+\/providers\//.test(setting.id)) continue;
    for (const log of setting.properties.logs) if (log.enabled && cosmosTables[log.category]) fed.add(cosmosTables[log.category]);
  }
  return fed;
}

const workbookDir = join(repoRoot, 'infra/workbook');
const queries = readdirSync(workbookDir).filter((f) => f.endsWith('.kql')).map((f) => ({ name: f.replace(/\.kql$/, ''), tables: tablesRead(readFileSync(join(workbookDir, f), 'utf8')) }));

describe('workbook', () => {
  it('reads only tables the deployment feeds (Application Insights, or a diagnostic setting to the workspace)', () => {
    const fed = fedTables(defaults);
    assert.ok(queries.length >= 9);
    for (const q of queries) {
      assert.ok(q.tables.length > 0, `${q.name}.kql: no table found`);
      for (const table of q.tables) assert.ok(fed.has(table), `${q.name}.kql reads ${table}, which nothing in infra/ feeds`);
    }
  });

  it('runs each query that reads a Cosmos DB table against the workspace, the others against Application Insights', () => {
    const layout = JSON.parse(readFileSync(join(workbookDir, 'workbook.json'), 'utf8'));
    for (const q of queries) {
      const item = layout.queries.find((x) => x.name === q.name);
      assert.ok(item, `workbook.json has no query item ${q.name}`);
      const workspace = q.tables.some((t) => t.startsWith('CDB'));
      assert.equal(item.content.resourceType, workspace ? 'microsoft.operationalinsights/workspaces' : 'microsoft.insights/components', q.name);
    }
  });

  it('charts Cosmos DB 429s from the platform metric (TotalRequests, StatusCode 429, per container) on the deployed account', () => {
    const workbook = ofType(defaults, 'Microsoft.Insights/workbooks')[0];
    const content = JSON.parse(workbook.properties.serializedData);
    const metric = content.items.find((i) => i.name === 'cosmos-429-metric');
    assert.equal(metric.type, 10);
    assert.equal(metric.content.metrics[0].metric, 'microsoft.documentdb/databaseaccounts-Requests-TotalRequests');
    assert.deepEqual(metric.content.filters.map((f) => [f.key, f.values]), [['StatusCode', ['429']]]);
    assert.equal(metric.content.metrics[0].splitBy, 'CollectionName');
    const account = ofType(defaults, 'Microsoft.DocumentDB/databaseAccounts')[0];
    assert.deepEqual(metric.content.resourceIds, [account.id]);
    assert.equal(content.items.some((i) => /CDBDataPlaneRequests/.test(i.content?.query ?? '')), false, 'no chart reads the request log');
  });

  it('finds the tables of a query and flags one nothing feeds (the check can fail)', () => {
    const kql = 'let x = 5;\nlet totals = customMetrics\n    | where name == "A";\nunion isfuzzy=true\n    (AzureDiagnostics\n        | where Category == "DataPlaneRequests"),\n    (CDBDataPlaneRequests | take 1)\n| join totals on Function';
    assert.deepEqual(tablesRead(kql), ['AzureDiagnostics', 'CDBDataPlaneRequests', 'customMetrics']);
    assert.equal(fedTables(defaults).has('AzureDiagnostics'), false);
    const noLogs = { resources: defaults.resources.filter((r) => r.type !== 'Microsoft.Insights/diagnosticSettings') };
    assert.equal(fedTables(noLogs).has('CDBPartitionKeyRUConsumption'), false);
  });
});
