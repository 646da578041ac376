#!/usr/bin/env node
// The host.json of the deploy package: the repository's host.json with the Event Hubs batching and target-based scaling
// values of the azd environment's profile (HOST_EVENTHUBS_*, written by `./pipeline plan --azd`; azd passes the
// environment to the prepackage hook, which runs ./pipeline package). The packaged file is what the Functions host, the
// scale controller and the handler (its request-size cap) read, so one set of values reaches all three. Unset = the
// repository's value; a bad value fails the packaging, naming the variable. The largest batch size is the handler's own
// (core/SensorPipeline.Core/limits.json, the one source the handler and ./pipeline plan read too): the package never
// carries a batch size the handler would refuse to start with. host.json is the one place the project sets
// maxEventBatchSize; nothing sets the host's app setting over it (AzureFunctionsJobHost__extensions__eventHubs__maxEventBatchSize),
// which the handler honours all the same if an operator sets it.
//   node infra/scripts/package-host-json.mjs <host.json> <out host.json>
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

/** The pipeline's limits (core/SensorPipeline.Core/limits.json): name → value. */
export const limits = Object.fromEntries(
  Object.entries(JSON.parse(readFileSync(new URL('../../core/SensorPipeline.Core/limits.json', import.meta.url), 'utf8')))
    .filter(([, entry]) => typeof entry === 'object')
    .map(([name, entry]) => [name, entry.value]));

/** Environment variable → [host.json key under extensions.eventHubs, parse]. */
export const settings = {
  HOST_EVENTHUBS_MAX_EVENT_BATCH_SIZE: ['maxEventBatchSize', wholeNumber(1, limits.maxEventBatchSize)],
  HOST_EVENTHUBS_MIN_EVENT_BATCH_SIZE: ['minEventBatchSize', wholeNumber(1, limits.maxEventBatchSize)],
  HOST_EVENTHUBS_MAX_WAIT_TIME: ['maxWaitTime', timeSpan],
  HOST_EVENTHUBS_PREFETCH_COUNT: ['prefetchCount', wholeNumber(0, 10000)],
  HOST_EVENTHUBS_BATCH_CHECKPOINT_FREQUENCY: ['batchCheckpointFrequency', wholeNumber(1, 1000)],
  HOST_EVENTHUBS_TARGET_UNPROCESSED_EVENT_THRESHOLD: ['targetUnprocessedEventThreshold', wholeNumber(1, 1000000)],
};

function wholeNumber(min, max) {
  return (text) => {
    if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max) throw new Error(`must be a whole number from ${min} to ${max}`);
    return Number(text);
  };
}

function timeSpan(text) {
  if (!/^\d{2}:\d{2}:\d{2}(\.\d+)?$/.test(text)) throw new Error('must be a time span hh:mm:ss');
  return text;
}

/** host.json (parsed) with the environment's values applied; throws naming the variable of a bad value. */
export function packagedHostJson(hostJson, env) {
  const result = structuredClone(hostJson);
  const eventHubs = ((result.extensions ??= {}).eventHubs ??= {});
  for (const [variable, [key, parse]] of Object.entries(settings)) {
    const text = env[variable];
    if (text === undefined || text === '') continue;
    try {
      eventHubs[key] = parse(text.trim());
    } catch (error) {
      throw new Error(`${variable}='${text}' (host.json extensions.eventHubs.${key}): ${error.message}`);
    }
  }
  if ((eventHubs.minEventBatchSize ?? 1) > (eventHubs.maxEventBatchSize ?? 100)) {
    throw new Error(`host.json extensions.eventHubs.minEventBatchSize ${eventHubs.minEventBatchSize} is above maxEventBatchSize ${eventHubs.maxEventBatchSize} (HOST_EVENTHUBS_MIN_EVENT_BATCH_SIZE / HOST_EVENTHUBS_MAX_EVENT_BATCH_SIZE)`);
  }
  return result;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [input, output] = process.argv.slice(2);
  try {
    const packaged = packagedHostJson(JSON.parse(readFileSync(input, 'utf8')), process.env);
    writeFileSync(output, JSON.stringify(packaged, null, 2) + '\n');
  } catch (error) {
    console.error(`package-host-json: ${error.message}`);
    process.exit(1);
  }
}
