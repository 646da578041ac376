// How rbac.bicep is written: role ids that match their comments, stable guid() names, the app identity marked as a
// service principal, the deployer's grants conditional. Which roles land on which scopes is read from the compiler's
// evaluation of the template in deploy.test.mjs.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { calleeName, fromText, getPath, literal, loadInfraBicepFiles, objectProps } from './lib/bicep-tree.mjs';
import { builtInRoles } from './lib/roles.mjs';

const files = loadInfraBicepFiles();
const rbac = files.find((f) => f.rel === 'infra/app/rbac.bicep');
const main = files.find((f) => f.rel === 'infra/main.bicep');

/** Role vars of a file: name -> { id, comment } where comment is the trailing // text. */
function roleVars(file) {
  const lines = file.text.split('\n');
  const result = new Map();
  for (const v of file.vars) {
    const id = literal(v.valueNode);
    if (typeof id !== 'string' || !/^[0-9a-f-]{36}$/.test(id)) continue;
    const comment = lines[v.node.startPosition.row].match(/\/\/\s*(.+?)\s*$/)?.[1];
    result.set(v.name, { id, comment });
  }
  return result;
}

/** Role assignments of a file: { symbol, kind, scope, principal, role, name, condition, principalType }. */
function assignments(file) {
  const roles = roleVars(file);
  const list = [];
  for (const r of file.resources.filter((x) => !x.existing)) {
    // The two kinds differ only in where the scope and the role variable are written.
    let kind, scopePath, roleVar;
    if (r.type.startsWith('Microsoft.Authorization/roleAssignments@')) {
      const roleArg = getPath(r.body, 'properties.roleDefinitionId');
      [kind, scopePath] = ['azure', 'scope'];
      roleVar = roleArg?.type === 'call_expression' ? roleArg.childForFieldName('arguments').namedChildren[1]?.text : undefined;
    } else if (r.type.startsWith('Microsoft.DocumentDB/databaseAccounts/sqlRoleAssignments@')) {
      const roleText = getPath(r.body, 'properties.roleDefinitionId')?.text ?? '';
      [kind, scopePath] = ['cosmos', 'parent'];
      roleVar = roleText.match(/sqlRoleDefinitions\/\$\{(\w+)\}/)?.[1];
    } else {
      continue;
    }
    list.push({
      symbol: r.symbol,
      kind,
      scope: getPath(r.body, scopePath)?.text,
      principal: getPath(r.body, 'properties.principalId')?.text,
      principalType: getPath(r.body, 'properties.principalType')?.text,
      role: roles.get(roleVar)?.id,
      roleVar,
      name: getPath(r.body, 'name'),
      condition: r.condition?.text,
    });
  }
  return list;
}

describe('role assignments', () => {
  it('uses built-in role ids whose trailing comment names the role correctly', () => {
    const roles = roleVars(rbac);
    assert.ok(roles.size >= 7);
    for (const [name, { id, comment }] of roles) {
      assert.ok(builtInRoles[id], `${name} = ${id} is not a role this pipeline expects`);
      assert.equal(comment, builtInRoles[id], `${name}: the comment must name the role`);
    }
  });

  it('makes every grant to the deploying user conditional on a deployer principal', () => {
    const deployerGrants = assignments(rbac).filter((x) => x.principal === 'deployerPrincipalId');
    assert.ok(deployerGrants.length > 0);
    for (const a of deployerGrants) assert.equal(a.condition, '(grantDeployer)', `${a.symbol} must be conditional on a deployer principal`);
  });

  it('names every assignment guid(scope id, principal, role) so re-deploying updates in place', () => {
    for (const a of assignments(rbac)) {
      assert.equal(a.name?.type, 'call_expression', `${a.symbol}: name must be a guid() call`);
      assert.equal(calleeName(a.name), 'guid', `${a.symbol}: name must be a guid() call`);
      const args = a.name.childForFieldName('arguments').namedChildren.map((n) => n.text);
      assert.deepEqual(args, [`${a.scope}.id`, a.principal, a.roleVar], `${a.symbol}: guid arguments`);
    }
  });

  it('marks the app identity as a ServicePrincipal (no Graph lookup race on a fresh identity)', () => {
    for (const a of assignments(rbac).filter((x) => x.kind === 'azure' && x.principal === 'appPrincipalId')) {
      assert.equal(a.principalType, "'ServicePrincipal'", a.symbol);
    }
  });

  it('is wired in main.bicep to the app identity and the deployer, before the Function App starts', () => {
    const module = main.modules.find((m) => m.path === './app/rbac.bicep');
    const params = objectProps(getPath(module.body, 'params'));
    assert.equal(params.get('appPrincipalId').text, 'identity.outputs.principalId');
    assert.equal(params.get('deployerPrincipalId').text, 'principalId');
    const app = main.modules.find((m) => m.path === './app/functionapp.bicep');
    assert.match(getPath(app.body, 'dependsOn')?.text ?? '', /\brbac\b/, 'the Function App must wait for its roles');
    assert.equal(main.params.find((p) => p.name === 'principalId').defaultNode.text, 'deployer().objectId');
  });

  it('catches a wrong role comment and a fixed assignment name (the checks can fail)', () => {
    const bad = fromText(`
param appPrincipalId string
var eventHubsDataReceiver = 'a638d3c7-ab3a-418d-83e6-5f17a39d4fde' // Azure Event Hubs Data Sender
resource eventHubsNamespace 'Microsoft.EventHub/namespaces@2024-01-01' existing = {
  name: 'x'
}
resource appEventHubsReceiver 'Microsoft.Authorization/roleAssignments@2022-04-01' = {
  name: 'fixed-name'
  scope: eventHubsNamespace
  properties: {
    roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', eventHubsDataReceiver)
    principalId: appPrincipalId
  }
}
`);
    assert.notEqual(roleVars(bad).get('eventHubsDataReceiver').comment, builtInRoles['a638d3c7-ab3a-418d-83e6-5f17a39d4fde']);
    assert.notEqual(assignments(bad)[0].name.type, 'call_expression');
  });
});
