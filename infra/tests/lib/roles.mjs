// The built-in roles this pipeline grants, by id, with their names from the Azure built-in roles reference
// (https://learn.microsoft.com/azure/role-based-access-control/built-in-roles) and, for the two Cosmos DB data-plane
// roles, the Cosmos DB role-based access control reference.
export const builtInRoles = Object.freeze({
  'a638d3c7-ab3a-418d-83e6-5f17a39d4fde': 'Azure Event Hubs Data Receiver',
  '2b629674-e913-4c01-ae53-ef4638d8f975': 'Azure Event Hubs Data Sender',
  'b7e6dc6d-f1e8-4753-8033-0f276bb0955b': 'Storage Blob Data Owner',
  '974c5e8b-45b9-4653-ba55-5f855dd0fb88': 'Storage Queue Data Contributor',
  '0a9a7e1f-b9d0-4cc4-a60d-0319b160aaa3': 'Storage Table Data Contributor',
  '3913510d-42f4-4e42-8a64-420c390055eb': 'Monitoring Metrics Publisher',
  '00000000-0000-0000-0000-000000000001': 'Cosmos DB Built-in Data Reader',
  '00000000-0000-0000-0000-000000000002': 'Cosmos DB Built-in Data Contributor',
});

/**
 * The scope of an Azure role assignment in a `bicep snapshot`: the app's assignments depend on the identity's
 * principalId, so their ids stay expressions and the scope is the first argument of extensionResourceId() there; for
 * the others it is the part of the id before /providers/Microsoft.Authorization.
 */
export function assignmentScope(assignment) {
  return assignment.id.startsWith('[')
    ? assignment.id.match(/^\[extensionResourceId\('([^']+)'/)[1]
    : assignment.id.split('/providers/Microsoft.Authorization/')[0];
}
