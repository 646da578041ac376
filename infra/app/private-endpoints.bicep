// A private endpoint per data plane, each with its private DNS zone linked to the virtual network and an A record
// the endpoint keeps up to date (its DNS zone group), so the services' usual host names resolve to private addresses
// from the app subnet and the tools subnet. With public network access off, this is the only way in.

@description('Azure region of the private endpoints (the virtual network\'s).')
param location string = resourceGroup().location

@description('Tags applied to every resource here.')
param tags object = {}

@description('Name prefix of the private endpoints, e.g. pe-<token>-.')
param namePrefix string

@description('Resource id of the virtual network the DNS zones are linked to.')
param virtualNetworkId string

@description('Resource id of the subnet the private endpoints take their addresses from.')
param subnetId string

@description('The endpoints: [{ name, serviceId, groupId, zone }]: the resource, its private link sub-resource (namespace, Sql, blob, table, ...) and the privatelink DNS zone that sub-resource resolves in.')
param endpoints array

resource zones 'Microsoft.Network/privateDnsZones@2024-06-01' = [for e in endpoints: {
  name: e.zone
  location: 'global'
  tags: tags
}]

resource links 'Microsoft.Network/privateDnsZones/virtualNetworkLinks@2024-06-01' = [for (e, i) in endpoints: {
  parent: zones[i]
  name: 'vnet'
  location: 'global'
  tags: tags
  properties: {
    registrationEnabled: false
    virtualNetwork: {
      id: virtualNetworkId
    }
  }
}]

resource privateEndpoints 'Microsoft.Network/privateEndpoints@2024-05-01' = [for e in endpoints: {
  name: '${namePrefix}${e.name}'
  location: location
  tags: tags
  properties: {
    subnet: {
      id: subnetId
    }
    privateLinkServiceConnections: [
      {
        name: e.name
        properties: {
          privateLinkServiceId: e.serviceId
          groupIds: [
            e.groupId
          ]
        }
      }
    ]
  }
}]

resource zoneGroups 'Microsoft.Network/privateEndpoints/privateDnsZoneGroups@2024-05-01' = [for (e, i) in endpoints: {
  parent: privateEndpoints[i]
  name: 'default'
  properties: {
    privateDnsZoneConfigs: [
      {
        name: replace(e.zone, '.', '-')
        properties: {
          privateDnsZoneId: zones[i].id
        }
      }
    ]
  }
}]

output names array = [for (e, i) in endpoints: privateEndpoints[i].name]
