// What a security review reads from a deployment, evaluated by `bicep snapshot` as ARM would receive it: the audit
// logs each resource sends to the workspace (and the per-request ones it keeps off unless asked), and public network
// access as an explicit, visible choice. infra/README.md's diagnostic-log table must say exactly what the template does.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { repoRoot, snapshot } from './lib/bicep-cli.mjs';

const base = { environmentName: 'test', location: 'westeurope', principalId: '11111111-1111-1111-1111-111111111111' };
const [defaults, premium, requestLogs, closed] = await Promise.all([
  snapshot(base),
  snapshot({ ...base, eventHubsSku: 'Premium', eventHubsCapacity: 1 }),
  snapshot({ ...base, storageRequestLogs: true, cosmosRequestLogs: true }),
  snapshot({ ...base, networkIsolation: 'private' }),
]);
const ofType = (result, type) => result.resources.filter((r) => r.type === type);

/** The resource a diagnostic setting's id hangs under, named as infra/README.md's table names it. */
function resourceOf(settingId) {
  const rules = [
    [/\/Microsoft\.EventHub\/namespaces\/[^/]+\/providers\//, 'Event Hubs namespace'],
    [/\/Microsoft\.Storage\/storageAccounts\/[^/]+\/blobServices\/default\/providers\//, 'Storage blob service'],
    [/\/Microsoft\.Storage\/storageAccounts\/[^/]+\/queueServices\/default\/providers\//, 'Storage queue service'],
    [/\/Microsoft\.Storage\/storageAccounts\/[^/]+\/tableServices\/default\/providers\//, 'Storage table service'],
    [/\/Microsoft\.Web\/sites\/[^/]+\/providers\//, 'Function App'],
    [/\/Microsoft\.DocumentDB\/databaseAccounts\/[^/]+\/providers\//, 'Cosmos DB account'],
  ];
  return rules.find(([pattern]) => pattern.test(settingId))?.[1] ?? settingId;
}

/** Every log category (or category group) a deployment sends to the workspace: "resource: category" -> enabled. */
function logs(result) {
  const workspace = ofType(result, 'Microsoft.OperationalInsights/workspaces')[0].id;
  const found = {};
  for (const setting of ofType(result, 'Microsoft.Insights/diagnosticSettings')) {
    assert.equal(setting.properties.workspaceId, workspace, `${setting.id} sends somewhere else`);
    for (const log of setting.properties.logs) {
      const key = `${resourceOf(setting.id)}: ${log.category ?? log.categoryGroup}`;
      assert.equal(found[key], undefined, `${key} is sent twice`);
      found[key] = log.enabled;
    }
  }
  return found;
}

describe('diagnostic logs', () => {
  it('send the audit categories of every resource by default, and no per-request log', () => {
    assert.ok(defaults.ok, defaults.output);
    assert.deepEqual(logs(defaults), {
      'Event Hubs namespace: OperationalLogs': true, // management operations on the namespace, hubs, consumer groups
      'Storage blob service: StorageDelete': true, // a deleted blob (package, lease, checkpoint): rare, never per reading
      'Storage blob service: StorageRead': false, // a row per read: ownership listings, the package
      'Storage blob service: StorageWrite': false, // a row per write: every checkpoint and ownership claim
      'Storage queue service: StorageDelete': true,
      'Storage queue service: StorageRead': false,
      'Storage queue service: StorageWrite': false,
      'Storage table service: StorageDelete': true,
      'Storage table service: StorageRead': false,
      'Storage table service: StorageWrite': false,
      'Function App: audit': true, // the audit category group: access to the SCM/Kudu and FTP endpoints, IP restriction hits, content changes
      'Cosmos DB account: ControlPlaneRequests': true, // account, container, role and network changes
      'Cosmos DB account: DataPlaneRequests': false, // a row per request
      'Cosmos DB account: PartitionKeyRUConsumption': true, // the workbook's partition-heat chart
    });
  });

  it('add Event Hubs runtime audit logs (who sent or received, from where; aggregated per minute) on Premium, the only tier that has them', () => {
    assert.ok(premium.ok, premium.output);
    const found = logs(premium);
    assert.equal(found['Event Hubs namespace: RuntimeAuditLogs'], true);
    assert.equal(logs(defaults)['Event Hubs namespace: RuntimeAuditLogs'], undefined, 'Standard rejects the category');
  });

  it('turn the per-request logs on only when asked (STORAGE_REQUEST_LOGS, COSMOS_REQUEST_LOGS)', () => {
    assert.ok(requestLogs.ok, requestLogs.output);
    const found = logs(requestLogs);
    for (const service of ['blob', 'queue', 'table']) {
      assert.equal(found[`Storage ${service} service: StorageRead`], true, service);
      assert.equal(found[`Storage ${service} service: StorageWrite`], true, service);
    }
    assert.equal(found['Cosmos DB account: DataPlaneRequests'], true);
  });

  it('are each listed in infra/README.md with the default the template deploys and a cost per hour at 100,000 readings/s', () => {
    const readme = readFileSync(join(repoRoot, 'infra/README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Diagnostic logs'), readme.indexOf('\n## ', readme.indexOf('## Diagnostic logs') + 3));
    const rows = [...section.matchAll(/^\| ([^|]+?) \| `([^`]+)`[^|]*\| (on|off|Premium only)[^|]*\|[^|]*\| \*\*\$([\d,.]+)\*\*/gm)];
    // One README row speaks for the three storage services, which get the same setting.
    const services = (resource) => (resource === 'Storage (blob, queue, table)' ? ['blob', 'queue', 'table'].map((s) => `Storage ${s} service`) : [resource]);
    const documented = Object.fromEntries(rows.flatMap((m) => services(m[1]).map((r) => [`${r}: ${m[2]}`, m[3]])));
    const deployed = { ...logs(defaults), 'Event Hubs namespace: RuntimeAuditLogs': 'Premium only' };
    const expected = Object.fromEntries(Object.entries(deployed).map(([k, v]) => [k, v === true ? 'on' : v === false ? 'off' : v]));
    assert.deepEqual(documented, expected);
  });

  it('finds a category the README leaves out (the check can fail)', () => {
    const partial = { ...logs(defaults) };
    delete partial['Cosmos DB account: ControlPlaneRequests'];
    assert.notDeepEqual(partial, logs(defaults));
    assert.equal(resourceOf('/subscriptions/x/providers/Other/thing'), '/subscriptions/x/providers/Other/thing');
  });
});

describe('public network access', () => {
  const access = (result) => ({
    eventHubs: ofType(result, 'Microsoft.EventHub/namespaces')[0].properties.publicNetworkAccess,
    cosmos: ofType(result, 'Microsoft.DocumentDB/databaseAccounts')[0].properties.publicNetworkAccess,
    storage: ofType(result, 'Microsoft.Storage/storageAccounts')[0].properties.publicNetworkAccess,
  });

  it('is on for Event Hubs, Cosmos DB and Storage by default: a stated choice (private: infra/README.md)', () => {
    assert.deepEqual(access(defaults), { eventHubs: 'Enabled', cosmos: 'Enabled', storage: 'Enabled' });
    assert.match(readFileSync(join(repoRoot, 'infra/README.md'), 'utf8'), /## Network: public or private/);
  });

  it('follows the one network choice (NETWORK_ISOLATION) on all three', () => {
    assert.ok(closed.ok, closed.output);
    assert.deepEqual(access(closed), { eventHubs: 'Disabled', cosmos: 'Disabled', storage: 'Disabled' });
  });
});
