// Storage for the Functions host: leases and Event Hubs checkpoints (blob), host internals
// (queue, table) and the Flex Consumption deployment package (a blob container). Shared keys are
// off; the host and the platform reach it with the app's managed identity only.

@description('Name of the storage account (3-24 lowercase letters and digits).')
@minLength(3)
@maxLength(24)
param name string

@description('Azure region for the storage account.')
param location string = resourceGroup().location

@description('Tags applied to the storage account.')
param tags object = {}

@description('Blob container the Flex Consumption plan deploys the app package from.')
@minLength(3)
@maxLength(63)
param deploymentContainerName string = 'app-package'

@description('Enabled: reachable from public networks (Entra ID still required; shared keys are off). Disabled: only through private endpoints (private-endpoints.bicep, the private network choice of main.bicep).')
@allowed([
  'Enabled'
  'Disabled'
])
param publicNetworkAccess string = 'Enabled'

@description('Resource id of the Log Analytics workspace that receives the blob, queue and table services\' logs.')
param logAnalyticsWorkspaceId string

@description('Also send StorageRead and StorageWrite: a Log Analytics row per request, so every Event Hubs checkpoint and ownership claim. Off by default; StorageDelete is always sent.')
param requestLogs bool = false

resource storage 'Microsoft.Storage/storageAccounts@2023-05-01' = {
  name: name
  location: location
  tags: tags
  kind: 'StorageV2'
  sku: {
    name: 'Standard_LRS'
  }
  properties: {
    allowSharedKeyAccess: false
    allowBlobPublicAccess: false
    defaultToOAuthAuthentication: true
    minimumTlsVersion: 'TLS1_2'
    supportsHttpsTrafficOnly: true
    publicNetworkAccess: publicNetworkAccess
    // Private: nothing but the private endpoints, not even trusted Azure services (the platform reaches the deployment
    // container through the app's VNet integration, as azd's Flex Consumption templates deploy).
    networkAcls: publicNetworkAccess == 'Disabled' ? {
      defaultAction: 'Deny'
      bypass: 'None'
    } : {
      defaultAction: 'Allow'
      bypass: 'AzureServices'
    }
  }
}

resource blobService 'Microsoft.Storage/storageAccounts/blobServices@2023-05-01' = {
  parent: storage
  name: 'default'
}

resource deploymentContainer 'Microsoft.Storage/storageAccounts/blobServices/containers@2023-05-01' = {
  parent: blobService
  name: deploymentContainerName
  properties: {
    publicAccess: 'None'
  }
}

resource queueService 'Microsoft.Storage/storageAccounts/queueServices@2023-05-01' = {
  parent: storage
  name: 'default'
}

resource tableService 'Microsoft.Storage/storageAccounts/tableServices@2023-05-01' = {
  parent: storage
  name: 'default'
}

// Storage has no audit category of its own: its logs are per request (StorageRead, StorageWrite, StorageDelete), on
// each service. The host writes a blob for every Event Hubs checkpoint and ownership claim, so StorageWrite alone
// would be a row per checkpoint: read and write stay off unless requestLogs. StorageDelete stays on: nothing in the
// pipeline deletes at the rate of readings, and a deleted package, lease, checkpoint or queue is what an
// investigation asks about. Control-plane changes (keys, network rules, settings) are in the Azure Activity log.
var storageLogs = [
  {
    category: 'StorageDelete'
    enabled: true
  }
  {
    category: 'StorageRead'
    enabled: requestLogs
  }
  {
    category: 'StorageWrite'
    enabled: requestLogs
  }
]

resource blobDiagnostics 'Microsoft.Insights/diagnosticSettings@2021-05-01-preview' = {
  name: 'audit-logs'
  scope: blobService
  properties: {
    workspaceId: logAnalyticsWorkspaceId
    logs: storageLogs
  }
}

resource queueDiagnostics 'Microsoft.Insights/diagnosticSettings@2021-05-01-preview' = {
  name: 'audit-logs'
  scope: queueService
  properties: {
    workspaceId: logAnalyticsWorkspaceId
    logs: storageLogs
  }
}

resource tableDiagnostics 'Microsoft.Insights/diagnosticSettings@2021-05-01-preview' = {
  name: 'audit-logs'
  scope: tableService
  properties: {
    workspaceId: logAnalyticsWorkspaceId
    logs: storageLogs
  }
}

output name string = storage.name
output resourceId string = storage.id
output blobEndpoint string = storage.properties.primaryEndpoints.blob
output queueEndpoint string = storage.properties.primaryEndpoints.queue
output tableEndpoint string = storage.properties.primaryEndpoints.table
output deploymentContainerName string = deploymentContainer.name
