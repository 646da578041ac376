// The private network of the `private` network choice: one virtual network with three subnets.
// - app: the Flex Consumption app's VNet integration, delegated to Microsoft.App/environments (Flex Consumption runs
//   on that platform and takes no other delegation), sized for the app's maximum instance count;
// - private-endpoints: one private endpoint per data plane (private-endpoints.bicep);
// - tools: an undelegated subnet for what drives and checks a private deployment from inside (loadgen, verify,
//   redrive on a VM or container there), resolving the services through the private DNS zones linked to this network.

@description('Name of the virtual network.')
@minLength(2)
@maxLength(64)
param name string

@description('Azure region: the same as the Function App (VNet integration needs both in one region).')
param location string = resourceGroup().location

@description('Tags applied to the virtual network.')
param tags object = {}

@description('The Function App\'s maximumInstanceCount: each instance takes one address of the app subnet.')
@minValue(1)
@maxValue(1000)
param maximumInstanceCount int

// Addresses the app subnet needs: one per instance (App Service VNet integration, "Subnet requirements": one address
// per instance), twice that while a scale or platform upgrade runs old and new instances side by side, and the five
// addresses Azure keeps in every subnet. The smallest prefix holding them, never below /27.
var appAddresses = 2 * maximumInstanceCount + 5
var appPrefixLength = appAddresses <= 32 ? 27 : appAddresses <= 64 ? 26 : appAddresses <= 128 ? 25 : appAddresses <= 256 ? 24 : appAddresses <= 512 ? 23 : appAddresses <= 1024 ? 22 : 21

// 10.0.0.0/16: the app subnet at its start (at most /21, so it ends by 10.0.7.255), the other two after it.
var addressSpace = '10.0.0.0/16'
var appSubnetPrefix = '10.0.0.0/${appPrefixLength}'
var privateEndpointsSubnetPrefix = '10.0.16.0/24'
var toolsSubnetPrefix = '10.0.17.0/24'

resource vnet 'Microsoft.Network/virtualNetworks@2024-05-01' = {
  name: name
  location: location
  tags: tags
  properties: {
    addressSpace: {
      addressPrefixes: [
        addressSpace
      ]
    }
    subnets: [
      {
        name: 'app'
        properties: {
          addressPrefix: appSubnetPrefix
          delegations: [
            {
              name: 'flex-consumption'
              properties: {
                serviceName: 'Microsoft.App/environments'
              }
            }
          ]
        }
      }
      {
        name: 'private-endpoints'
        properties: {
          addressPrefix: privateEndpointsSubnetPrefix
          privateEndpointNetworkPolicies: 'Disabled'
        }
      }
      {
        name: 'tools'
        properties: {
          addressPrefix: toolsSubnetPrefix
        }
      }
    ]
  }
}

output name string = vnet.name
output resourceId string = vnet.id
output appSubnetId string = resourceId('Microsoft.Network/virtualNetworks/subnets', vnet.name, 'app')
output appSubnetPrefix string = appSubnetPrefix
output privateEndpointsSubnetId string = resourceId('Microsoft.Network/virtualNetworks/subnets', vnet.name, 'private-endpoints')
output toolsSubnetId string = resourceId('Microsoft.Network/virtualNetworks/subnets', vnet.name, 'tools')
