// Identity only: no key is created, read, stored in a setting or exposed as an output.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fromText, loadInfraBicepFiles } from './lib/bicep-tree.mjs';
import { appSettings, keyResources, listCalls, localAuthSettings, secretOutputs, secretSettings } from './lib/checks.mjs';

const files = loadInfraBicepFiles();
const declared = (type) => files.flatMap((f) => f.resources.filter((r) => !r.existing && r.type.startsWith(`${type}@`)));

describe('no secrets in the infra', () => {
  it('never calls a list*() function (listKeys, listConnectionStrings, …)', () => {
    assert.deepEqual(listCalls(files), []);
    assert.doesNotMatch(files.map((f) => f.text).join('\n'), /listKeys/i);
  });

  it('declares every resource whose local auth it must switch off', () => {
    for (const type of ['Microsoft.EventHub/namespaces', 'Microsoft.DocumentDB/databaseAccounts', 'Microsoft.Insights/components', 'Microsoft.OperationalInsights/workspaces', 'Microsoft.Storage/storageAccounts', 'Microsoft.Web/sites/basicPublishingCredentialsPolicies']) {
      assert.ok(declared(type).length > 0, `no ${type} resource found, so its local-auth rule would pass vacuously`);
    }
  });

  it('turns key/SAS/shared-key/basic auth off wherever the resource offers it', () => {
    assert.deepEqual(localAuthSettings(files), []);
  });

  it('creates no SAS authorization rules or key vault secrets', () => {
    assert.deepEqual(keyResources(files), []);
  });

  it('puts no key or connection string with a key in the app settings', () => {
    const settings = appSettings(files);
    assert.ok(settings.length >= 20, `expected the Function App's settings, found ${settings.length}`);
    assert.deepEqual(secretSettings(settings), []);
  });

  it('exposes no key through an output', () => {
    assert.deepEqual(secretOutputs(files), []);
  });
});

// Each rule must be able to fail: feed it the mistakes it exists to catch.
describe('the security rules catch what they guard against', () => {
  const bad = fromText(`
resource ns 'Microsoft.EventHub/namespaces@2024-01-01' = {
  name: 'x'
  properties: {
    disableLocalAuth: false
  }
}
resource rule 'Microsoft.EventHub/namespaces/authorizationRules@2024-01-01' = {
  parent: ns
  name: 'send'
}
resource st 'Microsoft.Storage/storageAccounts@2023-05-01' = {
  name: 'st'
  properties: {
    allowBlobPublicAccess: false
  }
}
resource cosmos 'Microsoft.DocumentDB/databaseAccounts@2024-11-15' = {
  name: 'c'
  properties: {
    disableLocalAuth: true
    disableKeyBasedMetadataWriteAccess: true
  }
}
resource site 'Microsoft.Web/sites@2024-04-01' = {
  name: 'f'
  properties: {
    siteConfig: {
      appSettings: [
        {
          name: 'AzureWebJobsStorage'
          value: 'DefaultEndpointsProtocol=https;AccountName=\${st.name};AccountKey=\${st.listKeys().keys[0].value}'
        }
        {
          name: 'Cosmos__AuthKey'
          value: cosmos.listKeys().primaryMasterKey
        }
      ]
    }
  }
}
output STORAGE_KEY string = st.listKeys().keys[0].value
`, '<bad snippet>');

  it('flags listKeys()', () => assert.ok(listCalls([bad]).length >= 3));
  it('flags disableLocalAuth false and a missing allowSharedKeyAccess', () => {
    const found = localAuthSettings([bad]).join('\n');
    assert.match(found, /ns .*disableLocalAuth/);
    assert.match(found, /st .*allowSharedKeyAccess/);
    assert.doesNotMatch(found, /cosmos/);
  });
  it('flags SAS authorization rules', () => assert.equal(keyResources([bad]).length, 1));
  it('flags connection strings and keys in app settings', () => {
    const found = secretSettings(appSettings([bad])).join('\n');
    assert.match(found, /AzureWebJobsStorage is a connection-string setting/);
    assert.match(found, /Cosmos__AuthKey looks like a secret/);
    assert.match(found, /AzureWebJobsStorage value looks like a secret/);
  });
  it('flags outputs that expose keys', () => assert.equal(secretOutputs([bad]).length, 1));
});
