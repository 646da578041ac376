// Every Bicep file parses: the offline stand-in for `az bicep build` (no compiler on this machine).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { infraDir, loadInfraBicepFiles, parseBicep, syntaxProblems } from './lib/bicep-tree.mjs';

const files = loadInfraBicepFiles();

describe('Bicep syntax', () => {
  it('finds the Bicep files to check', () => {
    const names = files.map((f) => f.rel);
    for (const expected of ['infra/main.bicep', 'infra/app/functionapp.bicep', 'infra/app/rbac.bicep', 'infra/app/monitoring.bicep']) {
      assert.ok(names.includes(expected), `${expected} is missing; found ${names.join(', ')}`);
    }
  });

  for (const file of files) {
    it(`${file.rel} parses with no ERROR or MISSING node`, () => {
      const problems = syntaxProblems(file.tree);
      assert.deepEqual(problems, [], `${file.rel}: ${problems.map((p) => `${p.kind} at ${p.line}:${p.column} near "${p.text}"`).join('; ')}`);
    });
  }

  it('main.bicep targets the subscription scope', () => {
    const main = files.find((f) => f.rel === 'infra/main.bicep');
    assert.match(main.text, /^targetScope = 'subscription'$/m);
  });

  // The parser must really reject broken Bicep, or every test above proves nothing.
  const broken = {
    'unclosed object': "resource ns 'Microsoft.EventHub/namespaces@2024-01-01' = {\n  name: 'x'\n  properties: {\n    disableLocalAuth: true\n",
    'parameter with no default after =': 'param partitionCount int =\n',
    'unterminated string': "param name string = 'abc\n",
    'property without a value': "var x = {\n  name:\n}\n",
    'missing resource type': "resource ns = {\n  name: 'x'\n}\n",
    'stray closing bracket': "var hubs = [\n  'ingestion'\n]]\n",
  };
  for (const [name, snippet] of Object.entries(broken)) {
    it(`rejects a broken snippet: ${name}`, () => {
      const problems = syntaxProblems(parseBicep(snippet));
      assert.ok(problems.length > 0, `the parser accepted broken Bicep (${name}):\n${snippet}`);
    });
  }

  it('accepts the same shapes when they are well formed (control for the broken snippets)', () => {
    const good = "resource ns 'Microsoft.EventHub/namespaces@2024-01-01' = {\n  name: 'x'\n  properties: {\n    disableLocalAuth: true\n  }\n}\nparam partitionCount int = 32\nvar hubs = [\n  'ingestion'\n]\n";
    assert.deepEqual(syntaxProblems(parseBicep(good)), []);
  });

  for (const json of ['abbreviations.json', 'main.parameters.json']) {
    it(`${json} is valid JSON`, () => {
      assert.doesNotThrow(() => JSON.parse(fs.readFileSync(path.join(infraDir, json), 'utf8')));
    });
  }
});
