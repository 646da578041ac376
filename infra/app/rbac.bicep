// Every data-plane permission of the pipeline, in one place, each on the narrowest scope that works.
// Two principals get roles:
// - the app's user-assigned identity: exactly what the Functions host and the handler need;
// - the deploying user (optional): what loadgen needs from a developer machine after `az login`:
//   send to the ingestion hub, read the database for `loadgen verify`, and for `loadgen redrive` send to the
//   processor hubs and mark the dead letters it re-sent (the deadletters container only).
// Assignment names are guid(scope, principal, role): stable across re-deployments, so a
// second `azd provision` updates in place instead of failing on a duplicate.

@description('Principal (object) id of the app\'s user-assigned identity.')
param appPrincipalId string

@description('Object id of the deploying user or CI principal; empty grants nothing to it.')
param deployerPrincipalId string = ''

@description('Name of the Event Hubs namespace.')
param eventHubsNamespaceName string

@description('Name of the hub loadgen sends to and the splitter reads.')
param ingestionHubName string

@description('Names of the processor hubs, one per sensor kind: the splitter writes each, its processor reads it.')
param processorHubNames array

@description('Name of the host storage account.')
param storageAccountName string

@description('Name of the Application Insights component.')
param applicationInsightsName string

@description('Name of the Cosmos DB account.')
param cosmosAccountName string

@description('Name of the Cosmos DB database: the scope of every Cosmos DB data role.')
param cosmosDatabaseName string

@description('Name of the dead letters container: the only one the deployer may write (redrive marks what it re-sent).')
param deadLettersContainerName string

var grantDeployer = !empty(deployerPrincipalId)

// Azure built-in role definition ids.
var eventHubsDataReceiver = 'a638d3c7-ab3a-418d-83e6-5f17a39d4fde' // Azure Event Hubs Data Receiver
var eventHubsDataSender = '2b629674-e913-4c01-ae53-ef4638d8f975' // Azure Event Hubs Data Sender
var storageBlobDataOwner = 'b7e6dc6d-f1e8-4753-8033-0f276bb0955b' // Storage Blob Data Owner
var storageQueueDataContributor = '974c5e8b-45b9-4653-ba55-5f855dd0fb88' // Storage Queue Data Contributor
var storageTableDataContributor = '0a9a7e1f-b9d0-4cc4-a60d-0319b160aaa3' // Storage Table Data Contributor
var monitoringMetricsPublisher = '3913510d-42f4-4e42-8a64-420c390055eb' // Monitoring Metrics Publisher
// Cosmos DB data-plane roles live in the account, not in Azure RBAC.
var cosmosDataContributor = '00000000-0000-0000-0000-000000000002' // Cosmos DB Built-in Data Contributor
var cosmosDataReader = '00000000-0000-0000-0000-000000000001' // Cosmos DB Built-in Data Reader

resource eventHubsNamespace 'Microsoft.EventHub/namespaces@2024-01-01' existing = {
  name: eventHubsNamespaceName
}

resource ingestionHub 'Microsoft.EventHub/namespaces/eventhubs@2024-01-01' existing = {
  parent: eventHubsNamespace
  name: ingestionHubName
}

resource processorHubs 'Microsoft.EventHub/namespaces/eventhubs@2024-01-01' existing = [for name in processorHubNames: {
  parent: eventHubsNamespace
  name: name
}]

resource storageAccount 'Microsoft.Storage/storageAccounts@2023-05-01' existing = {
  name: storageAccountName
}

resource applicationInsights 'Microsoft.Insights/components@2020-02-02' existing = {
  name: applicationInsightsName
}

resource cosmosAccount 'Microsoft.DocumentDB/databaseAccounts@2024-11-15' existing = {
  name: cosmosAccountName
}

// Cosmos DB data roles take an account, a database or a container as scope (a path under the account, not an ARM id).
var cosmosDatabaseScope = '${cosmosAccount.id}/dbs/${cosmosDatabaseName}'
var cosmosDeadLettersScope = '${cosmosDatabaseScope}/colls/${deadLettersContainerName}'

// ---- The app identity ----------------------------------------------------------------------

// Each trigger reads one hub: the splitter the ingestion hub, each processor its own hub. Hub scope, not the
// namespace: a hub added later is not readable by the app until it is granted here.
resource appIngestionReceiver 'Microsoft.Authorization/roleAssignments@2022-04-01' = {
  name: guid(ingestionHub.id, appPrincipalId, eventHubsDataReceiver)
  scope: ingestionHub
  properties: {
    roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', eventHubsDataReceiver)
    principalId: appPrincipalId
    principalType: 'ServicePrincipal'
  }
}

// Each processor's trigger reads its kind's hub.
resource appProcessorReceivers 'Microsoft.Authorization/roleAssignments@2022-04-01' = [for (name, i) in processorHubNames: {
  name: guid(processorHubs[i].id, appPrincipalId, eventHubsDataReceiver)
  scope: processorHubs[i]
  properties: {
    roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', eventHubsDataReceiver)
    principalId: appPrincipalId
    principalType: 'ServicePrincipal'
  }
}]

// The splitter's Event Hubs client writes every processor hub (each device's readings to its partition),
// and nothing else: the app never sends to the ingestion hub. Its read of each hub's partition ids goes over the AMQP
// management link, covered by this role or by the Data Receiver role the processors already hold on the same hubs.
resource appProcessorHubSenders 'Microsoft.Authorization/roleAssignments@2022-04-01' = [for (name, i) in processorHubNames: {
  name: guid(processorHubs[i].id, appPrincipalId, eventHubsDataSender)
  scope: processorHubs[i]
  properties: {
    roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', eventHubsDataSender)
    principalId: appPrincipalId
    principalType: 'ServicePrincipal'
  }
}]

// Host leases and Event Hubs checkpoints are blobs; the platform reads the deployment package.
resource appStorageBlobOwner 'Microsoft.Authorization/roleAssignments@2022-04-01' = {
  name: guid(storageAccount.id, appPrincipalId, storageBlobDataOwner)
  scope: storageAccount
  properties: {
    roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', storageBlobDataOwner)
    principalId: appPrincipalId
    principalType: 'ServicePrincipal'
  }
}

// The host uses queues and tables for its own bookkeeping (AzureWebJobsStorage__queue/tableServiceUri).
resource appStorageQueueContributor 'Microsoft.Authorization/roleAssignments@2022-04-01' = {
  name: guid(storageAccount.id, appPrincipalId, storageQueueDataContributor)
  scope: storageAccount
  properties: {
    roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', storageQueueDataContributor)
    principalId: appPrincipalId
    principalType: 'ServicePrincipal'
  }
}

resource appStorageTableContributor 'Microsoft.Authorization/roleAssignments@2022-04-01' = {
  name: guid(storageAccount.id, appPrincipalId, storageTableDataContributor)
  scope: storageAccount
  properties: {
    roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', storageTableDataContributor)
    principalId: appPrincipalId
    principalType: 'ServicePrincipal'
  }
}

// Entra-authenticated telemetry (local auth is off on the component).
resource appMetricsPublisher 'Microsoft.Authorization/roleAssignments@2022-04-01' = {
  name: guid(applicationInsights.id, appPrincipalId, monitoringMetricsPublisher)
  scope: applicationInsights
  properties: {
    roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', monitoringMetricsPublisher)
    principalId: appPrincipalId
    principalType: 'ServicePrincipal'
  }
}

// Upserts, patches and point reads in the four containers of the pipeline's database; no control-plane rights, and
// nothing in another database of the account. The name stays keyed by the account (as when the scope was the account),
// so re-provisioning an existing environment narrows that assignment in place instead of adding a second one.
resource appCosmosDataContributor 'Microsoft.DocumentDB/databaseAccounts/sqlRoleAssignments@2024-11-15' = {
  parent: cosmosAccount
  name: guid(cosmosAccount.id, appPrincipalId, cosmosDataContributor)
  properties: {
    roleDefinitionId: '${cosmosAccount.id}/sqlRoleDefinitions/${cosmosDataContributor}'
    principalId: appPrincipalId
    scope: cosmosDatabaseScope
  }
}

// ---- The deploying user (loadgen send, verify and redrive) ----------------------------------
// principalType is left out: the deployer is an existing user, service principal or group, so there is
// no replication race to avoid, and ARM resolves the kind itself (no setting to get wrong in CI).
// Each hub is a scope of its own, so the deployer can send to the pipeline's hubs and to nothing else; it never
// receives. loadgen sends to the ingestion hub; redrive re-sends a dead letter to the hub its stage reads: a splitter
// letter or a single reading to ingestion, a processor's envelope to its kind's hub.

resource deployerIngestionSender 'Microsoft.Authorization/roleAssignments@2022-04-01' = if (grantDeployer) {
  name: guid(ingestionHub.id, deployerPrincipalId, eventHubsDataSender)
  scope: ingestionHub
  properties: {
    roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', eventHubsDataSender)
    principalId: deployerPrincipalId
  }
}

resource deployerProcessorHubSenders 'Microsoft.Authorization/roleAssignments@2022-04-01' = [for (name, i) in processorHubNames: if (grantDeployer) {
  name: guid(processorHubs[i].id, deployerPrincipalId, eventHubsDataSender)
  scope: processorHubs[i]
  properties: {
    roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', eventHubsDataSender)
    principalId: deployerPrincipalId
  }
}]

// `loadgen verify` point-reads the four containers and redrive queries deadletters: read-only, the database only.
resource deployerCosmosDataReader 'Microsoft.DocumentDB/databaseAccounts/sqlRoleAssignments@2024-11-15' = if (grantDeployer) {
  parent: cosmosAccount
  name: guid(cosmosAccount.id, deployerPrincipalId, cosmosDataReader)
  properties: {
    roleDefinitionId: '${cosmosAccount.id}/sqlRoleDefinitions/${cosmosDataReader}'
    principalId: deployerPrincipalId
    scope: cosmosDatabaseScope
  }
}

// redrive marks each dead letter it re-sent (a Patch conditioned on its ETag); without the mark every run re-sends it.
// The built-in roles are the only ones this template defines, so write access is narrowed by scope: the deadletters
// container, never readings, devices or archive.
resource deployerDeadLettersContributor 'Microsoft.DocumentDB/databaseAccounts/sqlRoleAssignments@2024-11-15' = if (grantDeployer) {
  parent: cosmosAccount
  name: guid(cosmosAccount.id, deployerPrincipalId, cosmosDataContributor)
  properties: {
    roleDefinitionId: '${cosmosAccount.id}/sqlRoleDefinitions/${cosmosDataContributor}'
    principalId: deployerPrincipalId
    scope: cosmosDeadLettersScope
  }
}
