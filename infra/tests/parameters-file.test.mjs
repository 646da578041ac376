// infra/main.parameters.json against the compiled template's parameters: azd substitutes ${NAME} and ${NAME=default}
// from the environment, so with an empty environment every value must still be one ARM accepts, every name a
// parameter of the template, every required parameter present, and every fallback the template's own default.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { compiledTemplate, repoRoot } from './lib/bicep-cli.mjs';

const template = compiledTemplate();
const parametersFile = JSON.parse(readFileSync(join(repoRoot, 'infra/main.parameters.json'), 'utf8'));

// What azd sets itself for a required ${NAME} without a fallback (azd env new / azd provision).
const azdProvides = { AZURE_ENV_NAME: 'dev', AZURE_LOCATION: 'westeurope', AZURE_PRINCIPAL_ID: '11111111-1111-1111-1111-111111111111' };

/** azd's substitution with an environment that holds only what azd provides: ${NAME=default} becomes default. */
function substitute(text) {
  return text.replace(/\$\{(\w+)(?:=([^}]*))?\}/g, (_, name, fallback) => {
    if (name in azdProvides) return azdProvides[name];
    if (fallback === undefined) throw new Error(`\${${name}} has no fallback and azd does not set it`);
    return fallback;
  });
}

/** The value ARM receives for a string from the parameters file, converted to the parameter's type. */
function typed(definition, text) {
  switch (definition.type.toLowerCase()) {
    case 'int':
      if (!/^-?\d+$/.test(text)) throw new Error(`'${text}' is not an int`);
      return Number(text);
    case 'bool':
      if (text !== 'true' && text !== 'false') throw new Error(`'${text}' is not a bool`);
      return text === 'true';
    default:
      return text;
  }
}

/** Every problem with a parameters file against a compiled template. */
function problems(file, compiled) {
  const found = [];
  const declared = compiled.parameters;
  for (const [name, entry] of Object.entries(file.parameters)) {
    const definition = declared[name];
    if (!definition) {
      found.push(`${name}: not a parameter of main.bicep`);
      continue;
    }
    let value;
    try {
      value = typed(definition, substitute(String(entry.value)));
    } catch (error) {
      found.push(`${name}: ${error.message}`);
      continue;
    }
    if (definition.allowedValues && !definition.allowedValues.includes(value)) found.push(`${name}: ${value} is not one of ${definition.allowedValues.join(', ')}`);
    if (definition.minValue !== undefined && value < definition.minValue) found.push(`${name}: ${value} < minValue ${definition.minValue}`);
    if (definition.maxValue !== undefined && value > definition.maxValue) found.push(`${name}: ${value} > maxValue ${definition.maxValue}`);
    if (typeof value === 'string' && definition.maxLength !== undefined && value.length > definition.maxLength) found.push(`${name}: longer than maxLength`);
    // '' asks for a generated name, so an empty fallback may sit below minLength.
    if (typeof value === 'string' && value !== '' && definition.minLength !== undefined && value.length < definition.minLength) found.push(`${name}: shorter than minLength`);
    const fallback = String(entry.value).match(/^\$\{\w+=(.*)\}$/)?.[1];
    const literalDefault = typeof definition.defaultValue === 'string' && definition.defaultValue.startsWith('[') ? undefined : definition.defaultValue;
    if (fallback !== undefined && literalDefault !== undefined && value !== literalDefault) found.push(`${name}: fallback ${value} differs from the template default ${literalDefault}`);
  }
  for (const [name, definition] of Object.entries(declared)) {
    if (!('defaultValue' in definition) && !(name in file.parameters)) found.push(`${name}: required by main.bicep but not in main.parameters.json`);
  }
  return found;
}

describe('main.parameters.json', () => {
  it('matches the compiled template: known names, required ones present, values ARM accepts, fallbacks equal to the defaults', () => {
    assert.ok(Object.keys(template.parameters).length >= 20);
    assert.deepEqual(problems(parametersFile, template), []);
  });

  it('catches an unknown name, a missing required one, a bad fallback and a differing default (the check can fail)', () => {
    const bad = {
      parameters: {
        environmentName: { value: '${AZURE_ENV_NAME}' },
        eventHubsPartitionCont: { value: '${EVENTHUBS_PARTITION_COUNT=32}' },
        eventHubsCapacity: { value: '${EVENTHUBS_CAPACITY=many}' },
        eventHubsMaximumThroughputUnits: { value: '${EVENTHUBS_MAX_THROUGHPUT_UNITS=41}' },
        writeParallelism: { value: '${PIPELINE_WRITE_PARALLELISM=16}' },
        eventHubsSku: { value: '${EVENTHUBS_SKU=Basic}' },
      },
    };
    const found = problems(bad, template);
    for (const expected of [/^eventHubsPartitionCont: not a parameter/, /^location: required/, /^eventHubsCapacity: 'many' is not an int/,
      /^eventHubsMaximumThroughputUnits: 41 > maxValue 40/, /^writeParallelism: fallback 16 differs/, /^eventHubsSku: Basic is not one of/]) {
      assert.ok(found.some((f) => expected.test(f)), `expected ${expected} in ${JSON.stringify(found)}`);
    }
  });
});
