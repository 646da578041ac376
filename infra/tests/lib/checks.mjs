// The structural rules the infra must keep, each a function returning a list of violations
// (empty = rule kept). The tests run them on the real files and on deliberately bad snippets,
// so every rule is shown to be able to fail.

import {
  calleeName,
  findAll,
  getPath,
  isInterpolated,
  lineOf,
  literal,
  objectProps,
  stringText,
} from './bicep-tree.mjs';

const typeName = (resource) => resource.type?.split('@')[0] ?? '';
const where = (file, node) => `${file.rel}:${lineOf(node)}`;

/** No list*() call anywhere (listKeys, listConnectionStrings, listAccountSas, …): nothing reads a key. */
export function listCalls(files) {
  const violations = [];
  for (const file of files) {
    for (const call of findAll(file.root, (n) => n.type === 'call_expression')) {
      if (/^list/i.test(calleeName(call))) violations.push(`${where(file, call)} calls ${calleeName(call)}()`);
    }
  }
  return violations;
}

// Property that turns key/SAS authentication off, per resource type, and the value it must have.
const localAuthRules = [
  { type: 'Microsoft.EventHub/namespaces', path: 'properties.disableLocalAuth', expected: true },
  { type: 'Microsoft.DocumentDB/databaseAccounts', path: 'properties.disableLocalAuth', expected: true },
  { type: 'Microsoft.DocumentDB/databaseAccounts', path: 'properties.disableKeyBasedMetadataWriteAccess', expected: true },
  { type: 'Microsoft.Insights/components', path: 'properties.DisableLocalAuth', expected: true },
  { type: 'Microsoft.OperationalInsights/workspaces', path: 'properties.features.disableLocalAuth', expected: true },
  { type: 'Microsoft.Storage/storageAccounts', path: 'properties.allowSharedKeyAccess', expected: false },
  { type: 'Microsoft.Storage/storageAccounts', path: 'properties.allowBlobPublicAccess', expected: false },
  { type: 'Microsoft.Web/sites/basicPublishingCredentialsPolicies', path: 'properties.allow', expected: false },
];

/** Every declared (not `existing`) resource of a rule's type sets the property to the literal value. */
export function localAuthSettings(files) {
  const violations = [];
  for (const file of files) {
    for (const resource of file.resources) {
      if (resource.existing) continue;
      for (const rule of localAuthRules.filter((r) => r.type === typeName(resource))) {
        const value = literal(getPath(resource.body, rule.path));
        if (value !== rule.expected) {
          violations.push(`${where(file, resource.node)} ${resource.symbol} (${rule.type}) must set ${rule.path}: ${rule.expected}, has ${value ?? 'nothing/computed'}`);
        }
      }
    }
  }
  return violations;
}

/** Resource types that only exist to hand out keys. */
export function keyResources(files) {
  const forbidden = [/\/authorizationRules$/i, /\/listKeys$/i, /^Microsoft\.KeyVault\/vaults\/secrets$/i];
  const violations = [];
  for (const file of files) {
    for (const resource of file.resources) {
      if (forbidden.some((re) => re.test(typeName(resource)))) {
        violations.push(`${where(file, resource.node)} declares ${typeName(resource)}`);
      }
    }
  }
  return violations;
}

/** The app settings of every Microsoft.Web/sites resource: [{ name, valueNode, file, node }]. */
export function appSettings(files) {
  const settings = [];
  for (const file of files) {
    for (const resource of file.resources.filter((r) => typeName(r) === 'Microsoft.Web/sites' && !r.existing)) {
      const value = getPath(resource.body, 'properties.siteConfig.appSettings');
      if (!value) continue;
      // A literal array, or concat() of literal arrays and generated lists (each kind's hub setting, map(processors, …):
      // the compiler's evaluation checks those in sensor-kinds.test.mjs).
      const lists = value.type === 'call_expression' && calleeName(value) === 'concat'
        ? value.childForFieldName('arguments').namedChildren.filter((c) => c.type === 'array')
        : [value];
      for (const item of lists.flatMap((list) => list.namedChildren.filter((c) => c.type === 'object'))) {
        const props = objectProps(item);
        settings.push({ name: literal(props.get('name')), valueNode: props.get('value'), file, node: item });
      }
    }
  }
  return settings;
}

// Names and values that would mean a secret travels in app settings.
const secretName = /(AuthKey|AccountKey|SharedAccessKey|Password|Secret|SasToken|InstrumentationKey)$/i;
const secretValue = /(AccountKey=|SharedAccessKey=|SharedAccessSignature|AuthKey|primaryKey|secondaryKey|primaryMasterKey|connectionStrings\b|listKeys|InstrumentationKey=)/i;

/** No setting carries a key or a connection string with a key; plain (non-identity) connection names are banned. */
export function secretSettings(settings) {
  const violations = [];
  for (const s of settings) {
    const at = `${s.file.rel}:${lineOf(s.node)}`;
    if (typeof s.name !== 'string') {
      violations.push(`${at} app setting name is not a literal`);
      continue;
    }
    if (secretName.test(s.name)) violations.push(`${at} ${s.name} looks like a secret setting`);
    // AzureWebJobsStorage / EventHubConnection without __ would be a connection string.
    if (s.name === 'AzureWebJobsStorage' || s.name === 'EventHubConnection') {
      violations.push(`${at} ${s.name} is a connection-string setting; use the identity-based ${s.name}__* settings`);
    }
    const valueText = s.valueNode?.text ?? '';
    if (secretValue.test(valueText)) violations.push(`${at} ${s.name} value looks like a secret: ${valueText.slice(0, 60)}`);
  }
  return violations;
}

/** Outputs never expose keys (azd writes every output to .azure/<env>/.env in plain text). */
export function secretOutputs(files) {
  const violations = [];
  for (const file of files) {
    for (const output of file.outputs) {
      if (secretValue.test(output.valueNode.text) || /key/i.test(output.name)) {
        violations.push(`${where(file, output.node)} output ${output.name} may expose a key`);
      }
    }
  }
  return violations;
}

export { isInterpolated, stringText };
