// host.json as deployed: an extension bundle range devhost's rules were read from, widened only on purpose, and the
// host's own telemetry set to a stated cost (functions/README.md, "What the Functions host itself sends").
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { repoRoot } from './lib/bicep-cli.mjs';

const host = JSON.parse(readFileSync(join(repoRoot, 'host.json'), 'utf8'));
const functionsHostReadme = readFileSync(join(repoRoot, 'emulators/SensorPipeline.FunctionsHost/README.md'), 'utf8');

const parseVersion = (text) => text.trim().split('.').map(Number);
const compare = (a, b) => a.reduce((result, part, i) => result || part - (b[i] ?? 0), 0);

/** Problems with an extension bundle range: it must be a closed-open interval of concrete versions inside one major. */
function rangeProblems(range) {
  const m = range.match(/^\[\s*(\d+\.\d+\.\d+)\s*,\s*(\d+\.\d+\.\d+)\s*\)$/);
  if (!m) return [`'${range}' is not a pinned range like [4.28.0, 4.39.0) (no wildcards, no open end)`];
  const [low, high] = [parseVersion(m[1]), parseVersion(m[2])];
  const problems = [];
  if (compare(low, high) >= 0) problems.push(`'${range}' is empty`);
  if (high[0] !== low[0] && !(high[0] === low[0] + 1 && high[1] === 0 && high[2] === 0)) problems.push(`'${range}' spans bundle majors`);
  if (high[0] === low[0] + 1) problems.push(`'${range}' reaches the end of bundle major ${low[0]}: every future ${low[0]}.x release would be taken unread`);
  return problems;
}

/** Whether emulators/SensorPipeline.FunctionsHost/README.md names this exact range (in backticks), so a change there is made on purpose. */
const readmeNames = (readme, range) => readme.includes(`\`${range}\``);

describe('host.json extension bundle', () => {
  const range = host.extensionBundle?.version ?? '';

  it('is the Functions extension bundle, pinned to a range with a known upper bound', () => {
    assert.equal(host.extensionBundle?.id, 'Microsoft.Azure.Functions.ExtensionBundle');
    assert.deepEqual(rangeProblems(range), []);
  });

  it('is the range emulators/SensorPipeline.FunctionsHost/README.md says devhost reproduces (changing it means updating that README)', () => {
    assert.ok(readmeNames(functionsHostReadme, range), `emulators/SensorPipeline.FunctionsHost/README.md does not name the bundle range \`${range}\` from host.json`);
  });

  it('flags a floating range and a range the README does not name (the checks can fail)', () => {
    assert.notDeepEqual(rangeProblems('[4.*, 5.0.0)'), []);
    assert.notDeepEqual(rangeProblems('[4.28.0, 5.0.0)'), []);
    assert.notDeepEqual(rangeProblems('[4.39.0, 4.28.0)'), []);
    assert.deepEqual(rangeProblems('[4.28.0, 4.39.0)'), []);
    assert.equal(readmeNames(functionsHostReadme, '[4.28.0, 4.40.0)'), false);
  });
});

describe('host.json logging (the host\'s own telemetry in Azure)', () => {
  const levels = host.logging?.logLevel ?? {};
  const rank = { Trace: 0, Debug: 1, Information: 2, Warning: 3, Error: 4, Critical: 5, None: 6 };

  it('sends no request item and no trace per successful invocation', () => {
    assert.ok(rank[levels['Host.Results']] >= rank.Warning, `Host.Results is ${levels['Host.Results']}: a request item per invocation`);
    assert.ok(rank[levels.Function] >= rank.Warning, `Function is ${levels.Function}: Executing/Executed traces and handler Logs per invocation`);
    assert.ok(rank[levels.default] >= rank.Warning, `default is ${levels.default}`);
  });

  it('sends no per-function aggregates (the handler\'s InvocationMs and InvocationFailures count the same) and never samples away a failure', () => {
    // At Information the host sends 7 metric items per function per instance every 30 s: ~79,000 items an hour at 94
    // instances, more than the whole telemetry budget (emulators/SensorPipeline.ApplicationInsights/README.md).
    assert.ok(rank[levels['Host.Aggregator']] >= rank.Warning, `Host.Aggregator is ${levels['Host.Aggregator']}`);
    const ai = host.logging?.applicationInsights ?? {};
    assert.equal(ai.enableDependencyTracking, false, 'a dependency item per checkpoint write and handler call');
    assert.equal(ai.enablePerformanceCountersCollection, false, 'performance counter items from every instance');
    assert.equal(ai.samplingSettings?.isEnabled, true);
    const excluded = (ai.samplingSettings?.excludedTypes ?? '').split(';').map((t) => t.trim());
    assert.ok(excluded.includes('Request') && excluded.includes('Exception'), `excludedTypes ${ai.samplingSettings?.excludedTypes}`);
  });
});
