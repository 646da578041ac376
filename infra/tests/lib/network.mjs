// What makes a deployment's data planes private, checked on a `bicep snapshot`: shared by the network choice's tests and
// the profiles' tests (the private profile must pass it).

const ofType = (result, type) => result.resources.filter((r) => r.type === type);

/** Each data plane the pipeline uses: its resource type, the private link sub-resource and the zone it resolves in. */
export const dataPlanes = [
  { type: 'Microsoft.EventHub/namespaces', groupId: 'namespace', zone: /^privatelink\.servicebus\.windows\.net$/ },
  { type: 'Microsoft.DocumentDB/databaseAccounts', groupId: 'Sql', zone: /^privatelink\.documents\.azure\.com$/ },
  { type: 'Microsoft.Storage/storageAccounts', groupId: 'blob', zone: /privatelink\.blob\.\{0\}', environment\(\)\.suffixes\.storage/ },
  { type: 'Microsoft.Storage/storageAccounts', groupId: 'table', zone: /privatelink\.table\.\{0\}', environment\(\)\.suffixes\.storage/ },
];

/** A zone's name without the brackets of an ARM expression (snapshot leaves environment() unevaluated). */
const inner = (name) => (name.startsWith('[') ? name.slice(1, -1) : name);

/**
 * What makes a data plane private, checked on a deployment; the problems found (empty: private). Its public network
 * access is Disabled, a private endpoint in the VNet's private-endpoints subnet connects to it with the group id, the
 * endpoint's DNS zone group names the expected privatelink zone, and that zone is linked to the same VNet.
 */
export function privacyProblems(result) {
  const problems = [];
  const vnet = ofType(result, 'Microsoft.Network/virtualNetworks')[0];
  if (!vnet) return ['no virtual network'];
  const endpoints = ofType(result, 'Microsoft.Network/privateEndpoints');
  const groups = ofType(result, 'Microsoft.Network/privateEndpoints/privateDnsZoneGroups');
  const zones = ofType(result, 'Microsoft.Network/privateDnsZones');
  const links = ofType(result, 'Microsoft.Network/privateDnsZones/virtualNetworkLinks');
  for (const plane of dataPlanes) {
    const resource = ofType(result, plane.type)[0];
    const label = `${plane.type} ${plane.groupId}`;
    if (resource.properties.publicNetworkAccess !== 'Disabled') problems.push(`${label}: publicNetworkAccess ${resource.properties.publicNetworkAccess}`);
    const endpoint = endpoints.find((e) => e.properties.privateLinkServiceConnections.some((c) =>
      c.properties.privateLinkServiceId === resource.id && c.properties.groupIds.includes(plane.groupId)));
    if (!endpoint) {
      problems.push(`${label}: no private endpoint`);
      continue;
    }
    if (endpoint.properties.subnet.id !== `${vnet.id}/subnets/private-endpoints`) problems.push(`${label}: endpoint in ${endpoint.properties.subnet.id}`);
    const group = groups.find((g) => g.name === `${endpoint.name}/default`);
    const zoneId = group?.properties.privateDnsZoneConfigs[0]?.properties.privateDnsZoneId;
    const zone = zones.find((z) => z.id === zoneId);
    if (!zone || !plane.zone.test(inner(zone.name))) {
      problems.push(`${label}: DNS zone ${zone?.name ?? zoneId ?? 'none'}`);
      continue;
    }
    const link = links.find((l) => l.name === `${zone.name}/vnet` || l.name.includes(inner(zone.name)));
    if (link?.properties.virtualNetwork.id !== vnet.id || link.properties.registrationEnabled !== false) problems.push(`${label}: zone not linked to the VNet`);
  }
  return problems;
}

