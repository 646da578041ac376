// docs/adding-a-sensor-kind.md, proved on the infra: a kind added to core/SensorPipeline.Core/sensor-kinds.json alone
// gets its hub with its processor's consumer group, the app's and the deployer's roles on that hub, its hub-name app
// setting and its processor's always-ready instances, in the compiler's evaluation of main.bicep (`bicep snapshot`).
// The third kind is added to a copy of infra/ and of the kinds file, so the repository is never touched.
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { after, describe, it } from 'node:test';
import { repoRoot, sensorKindsFile, snapshot } from './lib/bicep-cli.mjs';
import { assignmentScope, builtInRoles } from './lib/roles.mjs';

const deployer = '11111111-1111-1111-1111-111111111111';
const params = { environmentName: 'test', location: 'westeurope', principalId: deployer, alwaysReadyProcessor: 2 };
const kinds = JSON.parse(readFileSync(sensorKindsFile, 'utf8')).kinds;
const airQuality = {
  name: 'airquality', kind: 3, payloadField: 12, processor: 'AirQualityProcessor', hub: 'airquality',
  consumerGroup: 'airquality-processor', hubSetting: 'AirQualityHubName',
  measurements: [{ name: 'pm25UgM3', min: 0, max: 500 }, { name: 'no2Ppb', min: 0, max: 200 }],
};

const work = mkdtempSync(join(tmpdir(), 'sensorpipeline-kinds-'));
const skipped = new Set(['tests', 'tools', 'SensorPipeline.Plan'].map((d) => join(repoRoot, 'infra', d)));
cpSync(join(repoRoot, 'infra'), join(work, 'infra'), { recursive: true, filter: (src) => !skipped.has(src) && !src.includes(`${sep}node_modules`) });
mkdirSync(join(work, 'core', 'SensorPipeline.Core'), { recursive: true });
writeFileSync(join(work, 'core', 'SensorPipeline.Core', 'sensor-kinds.json'), JSON.stringify({ kinds: [...kinds, airQuality] }, null, 2));
after(() => rmSync(work, { recursive: true, force: true }));

const [shipped, withThird] = await Promise.all([snapshot(params), snapshot(params, join(work, 'infra', 'main.bicep'))]);

/** What each kind should have in a snapshot and does not: hub, consumer group, roles, app settings, always-ready. */
function missingForKinds(result, expectedKinds) {
  const ofType = (type) => result.resources.filter((r) => r.type === type);
  const hubs = new Set(ofType('Microsoft.EventHub/namespaces/eventhubs').map((r) => r.name.split('/').pop()));
  const groups = new Set(ofType('Microsoft.EventHub/namespaces/eventhubs/consumergroups').map((r) => r.name.split('/').slice(1).join('/')));
  const grants = new Set(ofType('Microsoft.Authorization/roleAssignments').map((r) => {
    const who = r.properties.principalId === deployer ? 'deployer' : 'app';
    return `${who}: ${builtInRoles[r.properties.roleDefinitionId.split('/').pop()]} on ${assignmentScope(r).split('/eventhubs/')[1] ?? '-'}`;
  }));
  const site = ofType('Microsoft.Web/sites')[0];
  const settings = new Map(site.properties.siteConfig.appSettings.map((s) => [s.name, s.value]));
  const ready = new Map(site.properties.functionAppConfig.scaleAndConcurrency.alwaysReady.map((a) => [a.name, a.instanceCount]));
  const missing = [];
  for (const kind of expectedKinds) {
    const expected = [
      [hubs.has(kind.hub), `hub ${kind.hub}`],
      [groups.has(`${kind.hub}/${kind.consumerGroup}`), `consumer group ${kind.hub}/${kind.consumerGroup}`],
      [grants.has(`app: Azure Event Hubs Data Receiver on ${kind.hub}`), `the app's receiver role on ${kind.hub}`],
      [grants.has(`app: Azure Event Hubs Data Sender on ${kind.hub}`), `the app's sender role on ${kind.hub}`],
      [grants.has(`deployer: Azure Event Hubs Data Sender on ${kind.hub}`), `the deployer's sender role on ${kind.hub}`],
      [settings.get(kind.hubSetting) === kind.hub, `app setting ${kind.hubSetting}=${kind.hub}`],
      [settings.get(`${kind.processor}ConsumerGroup`) === kind.consumerGroup, `app setting ${kind.processor}ConsumerGroup=${kind.consumerGroup}`],
      [ready.get(`function:${kind.processor}`) === params.alwaysReadyProcessor, `always-ready function:${kind.processor}`],
    ];
    missing.push(...expected.filter(([ok]) => !ok).map(([, what]) => `${kind.name}: ${what}`));
  }
  return missing;
}

describe('a sensor kind defined once (core/SensorPipeline.Core/sensor-kinds.json)', () => {
  it('gives each shipped kind its hub, consumer group, roles, app settings and always-ready instances', () => {
    assert.ok(shipped.ok, shipped.output);
    assert.deepEqual(missingForKinds(shipped, kinds), []);
  });

  it('gives a third kind added to the list alone the same, and nothing else changes', () => {
    assert.ok(withThird.ok, withThird.output);
    assert.deepEqual(missingForKinds(withThird, [...kinds, airQuality]), []);
    assert.equal(withThird.resources.length, shipped.resources.length + 5, 'hub, consumer group and three role assignments');
  });

  it('catches a kind the infra lacks (the check can fail)', () => {
    assert.deepEqual(missingForKinds(shipped, [airQuality]).length, 8);
  });
});
