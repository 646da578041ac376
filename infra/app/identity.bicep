// The one identity the Function App runs as. User-assigned (not system-assigned) so that its
// role assignments can be created before the app exists and survive re-creating the app.

@description('Name of the user-assigned managed identity.')
@minLength(3)
@maxLength(128)
param name string

@description('Azure region for the identity.')
param location string = resourceGroup().location

@description('Tags applied to the identity (azd-env-name at least).')
param tags object = {}

resource identity 'Microsoft.ManagedIdentity/userAssignedIdentities@2023-01-31' = {
  name: name
  location: location
  tags: tags
}

output resourceId string = identity.id
output name string = identity.name
output clientId string = identity.properties.clientId
output principalId string = identity.properties.principalId
