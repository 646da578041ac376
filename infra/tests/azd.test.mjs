// azure.yaml, the hooks, and the settings file loadgen reads after `azd provision`.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { loadInfraBicepFiles, repoRoot } from './lib/bicep-tree.mjs';
import { kindHubSettings, settingSources, toSettings } from '../scripts/write-loadgen-settings.mjs';

const azureYaml = fs.readFileSync(path.join(repoRoot, 'azure.yaml'), 'utf8');
const main = loadInfraBicepFiles().find((f) => f.rel === 'infra/main.bicep');
const script = path.join(repoRoot, 'infra/scripts/write-loadgen-settings.mjs');

// What `azd env get-values --output json` prints after a provision: every main.bicep output.
const sampleValues = () => Object.fromEntries(main.outputs.map((o) => [o.name, `value-of-${o.name.toLowerCase()}`]));

describe('azure.yaml', () => {
  it('declares one Function App service packaged from the custom handler deploy folder', () => {
    assert.match(azureYaml, /^name: sensorpipeline$/m);
    assert.equal([...azureYaml.matchAll(/^ {2}[a-z][\w-]*:$/gm)].filter((m) => azureYaml.indexOf('services:') < m.index && m.index < azureYaml.indexOf('\nhooks:')).length, 1, 'exactly one service');
    assert.match(azureYaml, /^ {2}pipeline:\n(?: {4}.*\n|\s*#.*\n)*? {4}host: function$/m);
    assert.match(azureYaml, /^ {4}language: custom$/m);
    assert.match(azureYaml, /^ {4}dist: \.pipeline\/deploy$/m);
    assert.match(azureYaml, /^ {4}remoteBuild: false$/m);
    assert.match(azureYaml, /prepackage:\n(?:.*\n)*? +run: \.\/pipeline package$/m);
  });

  it('matches the azd-service-name tag the Bicep puts on the Function App', () => {
    assert.match(main.text, /serviceName: 'pipeline'/);
    assert.ok(main.outputs.some((o) => o.name === 'SERVICE_PIPELINE_NAME'));
  });

  it('runs a postprovision hook that exists and is executable', () => {
    const run = azureYaml.match(/postprovision:\n(?:.*\n)*? +run: (\S+)/)?.[1];
    assert.equal(run, './infra/scripts/postprovision.sh');
    const stat = fs.statSync(path.join(repoRoot, run));
    assert.ok(stat.mode & 0o111, `${run} is not executable`);
    assert.match(fs.readFileSync(path.join(repoRoot, run), 'utf8'), /azd env get-values --output json \| node infra\/scripts\/write-loadgen-settings\.mjs/);
  });
});

describe('loadgen settings from azd outputs', () => {
  it('reads only outputs that main.bicep declares', () => {
    const outputs = new Set(main.outputs.map((o) => o.name));
    assert.deepEqual(Object.values(settingSources).filter((k) => !outputs.has(k)), []);
  });

  it('writes the conventions names to a JSON and an env file', () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'loadgen-settings-'));
    try {
      execFileSync(process.execPath, [script, '--out', out], { input: JSON.stringify(sampleValues()) });
      const json = JSON.parse(fs.readFileSync(path.join(out, 'loadgen.settings.json'), 'utf8'));
      assert.equal(json.EventHubConnection__fullyQualifiedNamespace, 'value-of-eventhubs_fully_qualified_namespace');
      assert.equal(json.Cosmos__AccountEndpoint, 'value-of-cosmos_account_endpoint');
      assert.deepEqual(Object.keys(json).sort(), [...Object.keys(settingSources), ...Object.keys(kindHubSettings)].sort());
      assert.equal(json.WeatherHubName, 'weather', 'each kind\'s hub setting, from sensor-kinds.json');
      const env = fs.readFileSync(path.join(out, 'azure.env'), 'utf8');
      assert.match(env, /^export IngestionHubName='value-of-ingestion_hub_name'$/m);
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  });

  it('fails naming the missing outputs when provision has not run', () => {
    const result = spawnSync(process.execPath, [script, '--out', os.tmpdir()], { input: JSON.stringify({ AZURE_ENV_NAME: 'dev' }) });
    assert.equal(result.status, 1);
    assert.match(result.stderr.toString(), /lacks EVENTHUBS_FULLY_QUALIFIED_NAMESPACE, .*COSMOS_ACCOUNT_ENDPOINT/);
  });

  it('refuses to write anything that looks like a key', () => {
    const values = { ...sampleValues(), COSMOS_ACCOUNT_ENDPOINT: 'AccountEndpoint=https://x/;AccountKey=abc' };
    assert.throws(() => toSettings(values), /COSMOS_ACCOUNT_ENDPOINT looks like it holds a key/);
  });

  it('writes by default into a git-ignored folder', () => {
    const result = spawnSync('git', ['check-ignore', '-q', '.pipeline/azure/loadgen.settings.json'], { cwd: repoRoot });
    assert.equal(result.status, 0, '.pipeline/azure/ must be git-ignored');
  });
});
