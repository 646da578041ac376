// Parameters are documented and their defaults sane, names and tags follow azd's conventions. The compiler checks
// the module wiring (params passed, outputs used); parameters-file.test.mjs checks main.parameters.json against it.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { decorator, fromText, infraDir, literal, loadInfraBicepFiles } from './lib/bicep-tree.mjs';

const files = loadInfraBicepFiles();
const main = files.find((f) => f.rel === 'infra/main.bicep');
const defaultOf = (file, name) => literal(file.params.find((p) => p.name === name)?.defaultNode);

/** Problems with one file's parameter declarations. */
function paramProblems(file) {
  const problems = [];
  for (const p of file.params) {
    const at = `${file.rel} param ${p.name}`;
    const description = literal(decorator(p, 'description')?.args[0]);
    if (typeof description !== 'string' || description.trim().length < 10) problems.push(`${at} has no @description`);
    const value = literal(p.defaultNode);
    if (value === undefined) continue; // no default, or a computed one (deployer().objectId)
    const allowed = literal(decorator(p, 'allowed')?.args[0]);
    if (allowed && !allowed.includes(value)) problems.push(`${at} default ${value} is not in @allowed ${JSON.stringify(allowed)}`);
    const min = literal(decorator(p, 'minValue')?.args[0]);
    const max = literal(decorator(p, 'maxValue')?.args[0]);
    if (min !== undefined && value < min) problems.push(`${at} default ${value} < @minValue ${min}`);
    if (max !== undefined && value > max) problems.push(`${at} default ${value} > @maxValue ${max}`);
    const minLength = literal(decorator(p, 'minLength')?.args[0]);
    const maxLength = literal(decorator(p, 'maxLength')?.args[0]);
    // '' means "generate the name": allowed below @minLength only for the optional overrides.
    if (typeof value === 'string' && value !== '' && minLength !== undefined && value.length < minLength) problems.push(`${at} default shorter than @minLength`);
    if (typeof value === 'string' && maxLength !== undefined && value.length > maxLength) problems.push(`${at} default longer than @maxLength`);
  }
  return problems;
}

describe('parameters', () => {
  for (const file of files) {
    it(`${file.rel}: every param has a @description and a default within its own limits`, () => {
      assert.deepEqual(paramProblems(file), []);
    });
  }

  it('catches a param without description and an out-of-range default (the check can fail)', () => {
    const bad = fromText("param a int = 3\n@description('Partitions per hub, at most 32.')\n@maxValue(32)\nparam b int = 64\n@description('Tier of the namespace.')\n@allowed([\n  'Standard'\n])\nparam c string = 'Basic'\n");
    assert.equal(paramProblems(bad).length, 3);
  });

  it('has the documented defaults', () => {
    assert.equal(defaultOf(main, 'eventHubsPartitionCount'), 32);
    assert.equal(defaultOf(main, 'eventHubsSku'), 'Standard');
    assert.ok(defaultOf(main, 'eventHubsMaximumThroughputUnits') > defaultOf(main, 'eventHubsCapacity'), 'auto-inflate on by default');
    assert.equal(defaultOf(main, 'cosmosThroughputMode'), 'serverless');
    assert.equal(defaultOf(main, 'cosmosArchiveAutoscaleMax') % 1000, 0, 'autoscale maximum is a multiple of 1000');
    assert.equal(defaultOf(main, 'cosmosReadingsThroughput') % 100, 0, 'manual RU/s is a multiple of 100');
    assert.equal(defaultOf(main, 'cosmosRequestLogs'), false, 'no Log Analytics row per Cosmos DB request by default');
    assert.ok(defaultOf(main, 'archiveTtlSeconds') > 0, 'stale readings expire');
    const ttl = defaultOf(main, 'readingsTtlSeconds');
    assert.ok(ttl === -1 || ttl > 0, 'TTL 0 is rejected by Cosmos DB');
    assert.equal(defaultOf(main, 'instanceMemoryMB'), 2048);
    assert.ok(defaultOf(main, 'maximumInstanceCount') >= 40, 'Flex Consumption minimum is 40');
    for (const f of ['alwaysReadySplitter', 'alwaysReadyProcessor']) assert.equal(defaultOf(main, f), 0, `${f}: nothing billed around the clock by default`);
  });

});

describe('azd conventions', () => {
  it('references only abbreviations that exist', () => {
    const abbreviations = JSON.parse(fs.readFileSync(path.join(infraDir, 'abbreviations.json'), 'utf8'));
    const used = [...main.text.matchAll(/abbrs\.(\w+)/g)].map((m) => m[1]);
    assert.ok(used.length >= 8);
    assert.deepEqual(used.filter((u) => !(u in abbreviations)), []);
  });

  it('names main.bicep outputs in UPPER_SNAKE for azd, including the service name azd deploys to', () => {
    for (const o of main.outputs) assert.match(o.name, /^[A-Z][A-Z0-9_]*$/, o.name);
    const names = main.outputs.map((o) => o.name);
    for (const needed of ['AZURE_LOCATION', 'AZURE_TENANT_ID', 'AZURE_RESOURCE_GROUP', 'SERVICE_PIPELINE_NAME', 'EVENTHUBS_FULLY_QUALIFIED_NAMESPACE', 'INGESTION_HUB_NAME', 'COSMOS_ACCOUNT_ENDPOINT', 'COSMOS_DATABASE_NAME']) {
      assert.ok(names.includes(needed), `main.bicep lacks output ${needed}`);
    }
  });

  it('tags the Function App with the azd service name and every resource group with the env name', () => {
    const app = files.find((f) => f.rel === 'infra/app/functionapp.bicep');
    assert.match(app.text, /'azd-service-name': serviceName/);
    assert.equal(defaultOf(app, 'serviceName'), 'pipeline');
    assert.match(main.text, /'azd-env-name': environmentName/);
  });
});
