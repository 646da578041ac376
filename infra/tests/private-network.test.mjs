// The network choice (NETWORK_ISOLATION), evaluated by `bicep snapshot` as ARM would receive it. private: every data
// plane (Event Hubs, Cosmos DB, Storage blob and table) has public network access off and a private endpoint in the
// virtual network, whose privatelink DNS zone is linked to that network and holds the endpoint's record; the Function
// App joins the network through a subnet delegated to Flex Consumption and sized for its maximum instance count.
// public: none of that exists, and the data planes stay as they were.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compiledTemplate, snapshot } from './lib/bicep-cli.mjs';
import { dataPlanes, privacyProblems } from './lib/network.mjs';

const base = { environmentName: 'test', location: 'westeurope', principalId: '11111111-1111-1111-1111-111111111111' };
const [open, closed, large] = await Promise.all([
  snapshot(base),
  snapshot({ ...base, networkIsolation: 'private' }),
  snapshot({ ...base, networkIsolation: 'private', maximumInstanceCount: 1000 }),
]);
const ofType = (result, type) => result.resources.filter((r) => r.type === type);
const one = (result, type) => {
  const found = ofType(result, type);
  assert.equal(found.length, 1, `${type}: ${found.length} found`);
  return found[0];
};

describe('network: private', () => {
  it('is one parameter with two values, public by default', () => {
    const parameter = compiledTemplate().parameters.networkIsolation;
    assert.deepEqual(parameter.allowedValues, ['public', 'private']);
    assert.equal(parameter.defaultValue, 'public');
  });

  it('makes every data plane private: public access off, a private endpoint, its DNS zone linked to the VNet', () => {
    assert.ok(closed.ok, closed.output);
    assert.deepEqual(privacyProblems(closed), []);
    assert.equal(ofType(closed, 'Microsoft.Network/privateEndpoints').length, dataPlanes.length, 'one endpoint per data plane, no queue');
  });

  it('denies Storage to anything but its private endpoints, trusted services included', () => {
    assert.deepEqual(one(closed, 'Microsoft.Storage/storageAccounts').properties.networkAcls, { defaultAction: 'Deny', bypass: 'None' });
  });

  it('joins the Function App to the VNet through a subnet delegated to Flex Consumption', () => {
    const vnet = one(closed, 'Microsoft.Network/virtualNetworks');
    const app = one(closed, 'Microsoft.Web/sites');
    assert.equal(app.properties.virtualNetworkSubnetId, `${vnet.id}/subnets/app`);
    const subnet = vnet.properties.subnets.find((s) => s.name === 'app');
    assert.deepEqual(subnet.properties.delegations.map((d) => d.properties.serviceName), ['Microsoft.App/environments']);
  });

  it('sizes the app subnet for twice the maximum instances plus the 5 addresses Azure keeps', () => {
    for (const [result, instances] of [[closed, 100], [large, 1000]]) {
      assert.ok(result.ok, result.output);
      const app = one(result, 'Microsoft.Network/virtualNetworks').properties.subnets.find((s) => s.name === 'app');
      const addresses = 2 ** (32 - Number(app.properties.addressPrefix.split('/')[1]));
      assert.ok(addresses >= 2 * instances + 5, `${app.properties.addressPrefix} for ${instances} instances`);
      assert.ok(addresses < 2 * (2 * instances + 5) || addresses === 32, `${app.properties.addressPrefix} is larger than needed for ${instances}`);
    }
  });

  it('leaves a tools subnet for loadgen, verify and redrive, undelegated, and names it in the outputs', () => {
    const subnets = one(closed, 'Microsoft.Network/virtualNetworks').properties.subnets;
    const tools = subnets.find((s) => s.name === 'tools');
    assert.ok(tools, 'no tools subnet');
    assert.equal(tools.properties.delegations, undefined);
    assert.ok(compiledTemplate().outputs.TOOLS_SUBNET_ID, 'TOOLS_SUBNET_ID output');
  });
});

describe('network: public (the default)', () => {
  it('creates no network, endpoint or zone, and keeps the data planes as they were', () => {
    assert.ok(open.ok, open.output);
    for (const type of ['Microsoft.Network/virtualNetworks', 'Microsoft.Network/privateEndpoints', 'Microsoft.Network/privateDnsZones']) {
      assert.equal(ofType(open, type).length, 0, type);
    }
    for (const plane of dataPlanes) assert.equal(ofType(open, plane.type)[0].properties.publicNetworkAccess, 'Enabled', plane.type);
    assert.deepEqual(one(open, 'Microsoft.Storage/storageAccounts').properties.networkAcls, { defaultAction: 'Allow', bypass: 'AzureServices' });
    assert.equal(one(open, 'Microsoft.Web/sites').properties.virtualNetworkSubnetId ?? null, null, 'no VNet integration');
  });

  it('is not private by the same check (the check can fail)', () => {
    assert.deepEqual(privacyProblems(open), ['no virtual network']);
  });
});

describe('the privacy check catches what it guards against', () => {
  const without = (predicate) => ({ ...closed, resources: closed.resources.filter((r) => !predicate(r)) });
  it('a data plane without its endpoint', () => {
    assert.match(privacyProblems(without((r) => r.type === 'Microsoft.Network/privateEndpoints' && r.name.endsWith('-cosmos'))).join('\n'), /DocumentDB.*Sql: no private endpoint/);
  });
  it('a zone not linked to the VNet', () => {
    assert.match(privacyProblems(without((r) => r.type === 'Microsoft.Network/privateDnsZones/virtualNetworkLinks' && r.name.startsWith('privatelink.servicebus'))).join('\n'), /EventHub.*zone not linked/);
  });
  it('public access left on', () => {
    const reopened = { ...closed, resources: closed.resources.map((r) => (r.type === 'Microsoft.Storage/storageAccounts' ? { ...r, properties: { ...r.properties, publicNetworkAccess: 'Enabled' } } : r)) };
    assert.match(privacyProblems(reopened).join('\n'), /blob: publicNetworkAccess Enabled/);
  });
});
