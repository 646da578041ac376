// SensorPipeline on Azure: `azd up` provisions everything below and deploys the custom handler.
// Subscription scope so that one template also creates the resource group.
// Identity only: no resource here hands out a key, and nothing reads one (no list*() calls).
targetScope = 'subscription'

// ---- Environment ---------------------------------------------------------------------------

@minLength(1)
@maxLength(64)
@description('Name of the azd environment; derives the unique suffix of every resource name.')
param environmentName string

@minLength(1)
@description('Azure region for all resources: one that offers Flex Consumption and Cosmos DB serverless.')
@metadata({
  azd: {
    type: 'location'
  }
})
param location string

@description('Object id of the deploying user or CI principal, granted the data-plane roles loadgen send, verify and redrive need; empty grants none.')
param principalId string = deployer().objectId

// ---- Optional name overrides (empty = generated from abbreviations.json + resourceToken) -------

@description('Resource group name; empty = rg-<environmentName>.')
param resourceGroupName string = ''

@description('User-assigned identity name; empty = generated.')
param identityName string = ''

@description('Event Hubs namespace name; empty = generated.')
param eventHubsNamespaceName string = ''

@description('Cosmos DB account name; empty = generated.')
param cosmosAccountName string = ''

@description('Storage account name; empty = generated.')
param storageAccountName string = ''

@description('Log Analytics workspace name; empty = generated.')
param logAnalyticsName string = ''

@description('Application Insights name; empty = generated.')
param applicationInsightsName string = ''

@description('Flex Consumption plan name; empty = generated.')
param appServicePlanName string = ''

@description('Function App name; empty = generated.')
param functionAppName string = ''

// ---- Scaling knobs -------------------------------------------------------------------------
// Two kinds of profile set them. `dev` is every default below: Cosmos DB serverless and Event Hubs Standard with
// 1-10 TU, nothing billed around the clock but one TU; it caps near 1,000 readings/s (a serverless container starts
// at 5,000 RU/s and `devices` stays small). `plan-<rate>` is what `./pipeline plan --rate N --azd` writes into the azd
// environment: per-container RU/s, TU/PU, partitions, instances, each sized for that rate with stated headroom.

@description('Name of the capacity profile: dev (the defaults: serverless Cosmos DB, caps near 1,000 readings/s) or plan-<rate> (written by ./pipeline plan --azd). Tags the resource group.')
@minLength(1)
@maxLength(40)
param profile string = 'dev'

@description('Event Hubs tier: Standard (throughput units with auto-inflate) or Premium (processing units).')
@allowed([
  'Standard'
  'Premium'
])
param eventHubsSku string = 'Standard'

@description('Event Hubs capacity: throughput units on Standard (1 TU = 1 MB/s or 1,000 events/s in), processing units on Premium (1, 2, 4, 6, 8, 10, 12, 16).')
@minValue(1)
@maxValue(40)
param eventHubsCapacity int = 1

@description('Standard only: auto-inflate ceiling in throughput units (0 = off).')
@minValue(0)
@maxValue(40)
param eventHubsMaximumThroughputUnits int = 10

@description('Partitions per hub (Standard: at most 32, fixed after creation; Premium and Dedicated: up to 100). Caps the instances each function scales to.')
@minValue(1)
@maxValue(100)
param eventHubsPartitionCount int = 32

@description('Hours events stay in each hub (Standard: 1-168).')
@minValue(1)
@maxValue(168)
param eventHubsRetentionHours int = 24

@description('Cosmos DB throughput: serverless (pay per RU, nothing idle; the dev profile) or provisioned (RU/s per container, the four settings below).')
@allowed([
  'serverless'
  'provisioned'
])
param cosmosThroughputMode string = 'serverless'

@description('provisioned only: manual RU/s of the readings container (a multiple of 100, at least 400). Above 1,000,000 Azure needs a support ticket first.')
@minValue(400)
param cosmosReadingsThroughput int = 400

@description('provisioned only: manual RU/s of the devices container (a multiple of 100, at least 400).')
@minValue(400)
param cosmosDevicesThroughput int = 400

@description('provisioned only: autoscale maximum RU/s of the archive container (a multiple of 1000; billed at least 10% of it every hour).')
@minValue(1000)
param cosmosArchiveAutoscaleMax int = 1000

@description('provisioned only: autoscale maximum RU/s of the deadletters container (a multiple of 1000; billed at least 10% of it every hour).')
@minValue(1000)
param cosmosDeadLettersAutoscaleMax int = 1000

@description('Cosmos DB account replicated across availability zones (set at creation only; raises the RU/s price).')
param cosmosZoneRedundant bool = false

@description('Default TTL of documents in the readings container, in seconds: -1 keeps them, or a positive number (Cosmos DB rejects 0). Default 7 days.')
@minValue(-1)
@maxValue(2147483647)
param readingsTtlSeconds int = 604800

@description('Default TTL of documents in the archive container (stale readings), in seconds: -1 keeps them, or a positive number. Default 30 days.')
@minValue(-1)
@maxValue(2147483647)
param archiveTtlSeconds int = 2592000

@description('Flex Consumption instance memory in MB (512, 2048 or 4096).')
@allowed([
  512
  2048
  4096
])
param instanceMemoryMB int = 2048

@description('Flex Consumption maximum instance count for the app (40-1000).')
@minValue(40)
@maxValue(1000)
param maximumInstanceCount int = 100

@description('Always-ready instances of the Splitter function (0 = scale to zero; each one is billed around the clock).')
@minValue(0)
@maxValue(1000)
param alwaysReadySplitter int = 0

@description('Always-ready instances of each processor function, one per sensor kind (0 = scale to zero).')
@minValue(0)
@maxValue(1000)
param alwaysReadyProcessor int = 0

@description('Pipeline__MaxAge: readings older than this (hh:mm:ss) since ingestion are archived, not shown live.')
param pipelineMaxAge string = '00:05:00'

@description('Pipeline__WriteParallelism: concurrent Cosmos DB writes per invocation.')
@minValue(1)
@maxValue(256)
param writeParallelism int = 32

// ---- Monitoring ----------------------------------------------------------------------------

@description('Days Log Analytics keeps telemetry (30-730).')
@minValue(30)
@maxValue(730)
param logRetentionInDays int = 30

@description('Freshness alert threshold in milliseconds (worst batch in 5 minutes).')
@minValue(1000)
@maxValue(3600000)
param freshnessAlertThresholdMs int = 60000

@description('E-mail address for alert notifications; empty = alerts without notification.')
param alertEmail string = ''

@description('Also send Cosmos DB DataPlaneRequests logs (one Log Analytics row per request, table CDBDataPlaneRequests): off by default, since at 100,000 readings/s that is ~200,000 rows/s. The workbook\'s 429 chart reads the platform metric instead.')
param cosmosRequestLogs bool = false

@description('Send Cosmos DB PartitionKeyRUConsumption logs (the workbook\'s partition-heat chart, table CDBPartitionKeyRUConsumption): a row per partition key and operation per second, nearly a row per request when each device writes once a second. On by default; ./pipeline plan turns it off for a rate.')
param cosmosPartitionKeyLogs bool = true

@description('Also send Storage StorageRead and StorageWrite logs (blob, queue, table): a Log Analytics row per request, so every Event Hubs checkpoint and ownership claim. Off by default; StorageDelete is always sent.')
param storageRequestLogs bool = false

// ---- Network -------------------------------------------------------------------------------

@description('One network choice for Event Hubs, Cosmos DB and Storage. public (the default, a stated choice): reachable from public networks, every request still needs an Entra token and a data role. private: public network access off on all three; each is reached only through a private endpoint in a virtual network whose private DNS zones resolve its host names, and the Function App joins that network by VNet integration. loadgen, verify and redrive then run from inside it (its tools subnet). infra/README.md, "Network: public or private".')
@allowed([
  'public'
  'private'
])
param networkIsolation string = 'public'

// ---- Rules across parameters ---------------------------------------------------------------
// Decorators check one parameter at a time; these combinations fail the deployment before any
// resource is touched, with a message naming the parameter and its azd setting.

var checkedPartitionCount = eventHubsSku == 'Standard' && eventHubsPartitionCount > 32
  ? fail('eventHubsPartitionCount (EVENTHUBS_PARTITION_COUNT) is ${eventHubsPartitionCount}: Event Hubs Standard allows at most 32 partitions per hub; use 1-32, or Premium for up to 100.')
  : eventHubsPartitionCount
var checkedCapacity = eventHubsSku == 'Premium' && !contains([1, 2, 4, 6, 8, 10, 12, 16], eventHubsCapacity)
  ? fail('eventHubsCapacity (EVENTHUBS_CAPACITY) is ${eventHubsCapacity}: Event Hubs Premium takes 1, 2, 4, 6, 8, 10, 12 or 16 processing units.')
  : eventHubsCapacity
var checkedReadingsTtlSeconds = readingsTtlSeconds == 0
  ? fail('readingsTtlSeconds is 0: Cosmos DB takes -1 (keep readings) or a positive number of seconds as a default TTL.')
  : readingsTtlSeconds
var checkedArchiveTtlSeconds = archiveTtlSeconds == 0
  ? fail('archiveTtlSeconds is 0: Cosmos DB takes -1 (keep stale readings) or a positive number of seconds as a default TTL.')
  : archiveTtlSeconds
// Cosmos DB takes manual RU/s in steps of 100 and autoscale maxima in steps of 1000.
var checkedCosmosThroughput = cosmosReadingsThroughput % 100 != 0 || cosmosDevicesThroughput % 100 != 0
  ? fail('cosmosReadingsThroughput (COSMOS_READINGS_THROUGHPUT) ${cosmosReadingsThroughput} and cosmosDevicesThroughput (COSMOS_DEVICES_THROUGHPUT) ${cosmosDevicesThroughput}: manual RU/s must be multiples of 100.')
  : cosmosArchiveAutoscaleMax % 1000 != 0 || cosmosDeadLettersAutoscaleMax % 1000 != 0
      ? fail('cosmosArchiveAutoscaleMax (COSMOS_ARCHIVE_AUTOSCALE_MAX) ${cosmosArchiveAutoscaleMax} and cosmosDeadLettersAutoscaleMax (COSMOS_DEADLETTERS_AUTOSCALE_MAX) ${cosmosDeadLettersAutoscaleMax}: autoscale maxima must be multiples of 1000.')
      : {
          readings: cosmosReadingsThroughput
          devices: cosmosDevicesThroughput
          archiveMax: cosmosArchiveAutoscaleMax
          deadLettersMax: cosmosDeadLettersAutoscaleMax
        }

var isPrivate = networkIsolation == 'private'
var publicNetworkAccess = isPrivate ? 'Disabled' : 'Enabled'

// ---- Names ---------------------------------------------------------------------------------

var abbrs = loadJsonContent('./abbreviations.json')
var resourceToken = toLower(uniqueString(subscription().id, environmentName, location))
var tags = {
  'azd-env-name': environmentName
  'pipeline-profile': profile
}

// The names every part of the pipeline agrees on (docs/conventions.md).
var ingestionHubName = 'ingestion'
var splitterConsumerGroup = 'splitter'
// The sensor kinds, defined once (docs/adding-a-sensor-kind.md): each gets its hub with its processor's consumer group,
// the app's roles on that hub, its hub-name and consumer-group app settings and its processor's always-ready instances.
var sensorKinds = loadJsonContent('../core/SensorPipeline.Core/sensor-kinds.json').kinds
var processors = map(sensorKinds, kind => {
  function: kind.processor
  hub: kind.hub
  hubSetting: kind.hubSetting
  consumerGroup: kind.consumerGroup
})
var hubs = concat([
  {
    name: ingestionHubName
    consumerGroup: splitterConsumerGroup
  }
], map(sensorKinds, kind => {
  name: kind.hub
  consumerGroup: kind.consumerGroup
}))
var cosmosDatabaseName = 'sensorpipeline'
var readingsContainerName = 'readings'
var devicesContainerName = 'devices'
var archiveContainerName = 'archive'
var deadLettersContainerName = 'deadletters'

resource rg 'Microsoft.Resources/resourceGroups@2024-03-01' = {
  name: !empty(resourceGroupName) ? resourceGroupName : '${abbrs.resourcesResourceGroups}${environmentName}'
  location: location
  tags: tags
}

// ---- Resources -----------------------------------------------------------------------------

module identity './app/identity.bicep' = {
  name: 'identity'
  scope: rg
  params: {
    name: !empty(identityName) ? identityName : '${abbrs.managedIdentityUserAssignedIdentities}pipeline-${resourceToken}'
    location: location
    tags: tags
  }
}

module eventHubs './app/eventhubs.bicep' = {
  name: 'eventhubs'
  scope: rg
  params: {
    name: !empty(eventHubsNamespaceName) ? eventHubsNamespaceName : '${abbrs.eventHubNamespaces}${resourceToken}'
    location: location
    tags: tags
    sku: eventHubsSku
    capacity: checkedCapacity
    maximumThroughputUnits: eventHubsMaximumThroughputUnits
    partitionCount: checkedPartitionCount
    retentionHours: eventHubsRetentionHours
    hubs: hubs
    publicNetworkAccess: publicNetworkAccess
    logAnalyticsWorkspaceId: insights.outputs.workspaceId
  }
}

module cosmos './app/cosmos.bicep' = {
  name: 'cosmos'
  scope: rg
  params: {
    name: !empty(cosmosAccountName) ? cosmosAccountName : '${abbrs.documentDBDatabaseAccounts}${resourceToken}'
    location: location
    tags: tags
    throughputMode: cosmosThroughputMode
    readingsThroughput: checkedCosmosThroughput.readings
    devicesThroughput: checkedCosmosThroughput.devices
    archiveAutoscaleMax: checkedCosmosThroughput.archiveMax
    deadLettersAutoscaleMax: checkedCosmosThroughput.deadLettersMax
    zoneRedundant: cosmosZoneRedundant
    databaseName: cosmosDatabaseName
    readingsContainerName: readingsContainerName
    devicesContainerName: devicesContainerName
    archiveContainerName: archiveContainerName
    deadLettersContainerName: deadLettersContainerName
    readingsTtlSeconds: checkedReadingsTtlSeconds
    archiveTtlSeconds: checkedArchiveTtlSeconds
    logAnalyticsWorkspaceId: insights.outputs.workspaceId
    requestLogs: cosmosRequestLogs
    partitionKeyLogs: cosmosPartitionKeyLogs
    publicNetworkAccess: publicNetworkAccess
  }
}

module storage './app/storage.bicep' = {
  name: 'storage'
  scope: rg
  params: {
    name: !empty(storageAccountName) ? storageAccountName : '${abbrs.storageStorageAccounts}${resourceToken}'
    location: location
    tags: tags
    deploymentContainerName: 'app-package'
    publicNetworkAccess: publicNetworkAccess
    logAnalyticsWorkspaceId: insights.outputs.workspaceId
    requestLogs: storageRequestLogs
  }
}

module insights './app/insights.bicep' = {
  name: 'insights'
  scope: rg
  params: {
    workspaceName: !empty(logAnalyticsName) ? logAnalyticsName : '${abbrs.operationalInsightsWorkspaces}${resourceToken}'
    applicationInsightsName: !empty(applicationInsightsName) ? applicationInsightsName : '${abbrs.insightsComponents}${resourceToken}'
    location: location
    tags: tags
    retentionInDays: logRetentionInDays
  }
}

module monitoring './app/monitoring.bicep' = {
  name: 'monitoring'
  scope: rg
  params: {
    applicationInsightsId: insights.outputs.applicationInsightsId
    location: location
    tags: tags
    nameSuffix: resourceToken
    freshnessThresholdMs: freshnessAlertThresholdMs
    alertEmail: alertEmail
    cosmosAccountId: cosmos.outputs.resourceId
  }
}

// The private network choice: a virtual network, a private endpoint and DNS zone per data plane (Event Hubs, Cosmos DB,
// Storage blob for checkpoints, leases and the deployment package, Storage table for the host's diagnostic events and
// scale metrics; no queue: no trigger or binding of this app uses one), and the app's VNet integration (below).
module network './app/network.bicep' = if (isPrivate) {
  name: 'network'
  scope: rg
  params: {
    name: '${abbrs.networkVirtualNetworks}${resourceToken}'
    location: location
    tags: tags
    maximumInstanceCount: maximumInstanceCount
  }
}

module privateEndpoints './app/private-endpoints.bicep' = if (isPrivate) {
  name: 'private-endpoints'
  scope: rg
  params: {
    location: location
    tags: tags
    namePrefix: '${abbrs.networkPrivateEndpoints}${resourceToken}-'
    virtualNetworkId: network!.outputs.resourceId
    subnetId: network!.outputs.privateEndpointsSubnetId
    endpoints: [
      {
        name: 'eventhubs'
        serviceId: eventHubs.outputs.resourceId
        groupId: 'namespace'
        zone: 'privatelink.servicebus.windows.net'
      }
      {
        name: 'cosmos'
        serviceId: cosmos.outputs.resourceId
        groupId: 'Sql'
        zone: 'privatelink.documents.azure.com'
      }
      {
        name: 'blob'
        serviceId: storage.outputs.resourceId
        groupId: 'blob'
        zone: 'privatelink.blob.${environment().suffixes.storage}'
      }
      {
        name: 'table'
        serviceId: storage.outputs.resourceId
        groupId: 'table'
        zone: 'privatelink.table.${environment().suffixes.storage}'
      }
    ]
  }
}

// Roles before the app: the host starts listening as soon as the app exists, and an identity
// without its roles would fail its first connections.
module rbac './app/rbac.bicep' = {
  name: 'rbac'
  scope: rg
  params: {
    appPrincipalId: identity.outputs.principalId
    deployerPrincipalId: principalId
    eventHubsNamespaceName: eventHubs.outputs.name
    ingestionHubName: ingestionHubName
    processorHubNames: map(processors, p => p.hub)
    storageAccountName: storage.outputs.name
    applicationInsightsName: insights.outputs.applicationInsightsName
    cosmosAccountName: cosmos.outputs.name
    cosmosDatabaseName: cosmos.outputs.databaseName
    deadLettersContainerName: deadLettersContainerName
  }
}

module functionApp './app/functionapp.bicep' = {
  name: 'functionapp'
  scope: rg
  // Roles first, and in the private choice the endpoints and their DNS records: the host connects as soon as it starts.
  dependsOn: [
    rbac
    privateEndpoints
  ]
  params: {
    name: !empty(functionAppName) ? functionAppName : '${abbrs.webSitesFunctions}pipeline-${resourceToken}'
    planName: !empty(appServicePlanName) ? appServicePlanName : '${abbrs.webServerFarms}${resourceToken}'
    location: location
    tags: tags
    serviceName: 'pipeline'
    identityId: identity.outputs.resourceId
    identityClientId: identity.outputs.clientId
    storageBlobEndpoint: storage.outputs.blobEndpoint
    storageQueueEndpoint: storage.outputs.queueEndpoint
    storageTableEndpoint: storage.outputs.tableEndpoint
    deploymentContainerName: storage.outputs.deploymentContainerName
    eventHubsFullyQualifiedNamespace: eventHubs.outputs.fullyQualifiedNamespace
    ingestionHubName: ingestionHubName
    splitterConsumerGroup: splitterConsumerGroup
    processors: processors
    cosmosEndpoint: cosmos.outputs.endpoint
    cosmosDatabaseName: cosmos.outputs.databaseName
    readingsContainerName: readingsContainerName
    devicesContainerName: devicesContainerName
    archiveContainerName: archiveContainerName
    deadLettersContainerName: deadLettersContainerName
    readingsTtlSeconds: checkedReadingsTtlSeconds
    applicationInsightsConnectionString: insights.outputs.connectionString
    pipelineMaxAge: pipelineMaxAge
    writeParallelism: writeParallelism
    instanceMemoryMB: instanceMemoryMB
    maximumInstanceCount: maximumInstanceCount
    logAnalyticsWorkspaceId: insights.outputs.workspaceId
    virtualNetworkSubnetId: isPrivate ? network!.outputs.appSubnetId : ''
    alwaysReady: union({ Splitter: alwaysReadySplitter }, toObject(processors, p => p.function, p => alwaysReadyProcessor))
  }
}

// ---- Outputs (azd stores them in .azure/<env>/.env; the postprovision hook reads them) ------

output AZURE_LOCATION string = location
output PIPELINE_PROFILE string = profile
output NETWORK_ISOLATION string = networkIsolation
// Where loadgen, verify and redrive run from in the private choice (empty when public).
output TOOLS_SUBNET_ID string = isPrivate ? network!.outputs.toolsSubnetId : ''
output AZURE_TENANT_ID string = tenant().tenantId
output AZURE_RESOURCE_GROUP string = rg.name
output SERVICE_PIPELINE_NAME string = functionApp.outputs.name
output SERVICE_PIPELINE_URI string = 'https://${functionApp.outputs.defaultHostName}'
output APP_IDENTITY_CLIENT_ID string = identity.outputs.clientId
output APP_IDENTITY_PRINCIPAL_ID string = identity.outputs.principalId
output EVENTHUBS_NAMESPACE string = eventHubs.outputs.name
output EVENTHUBS_FULLY_QUALIFIED_NAMESPACE string = eventHubs.outputs.fullyQualifiedNamespace
output INGESTION_HUB_NAME string = ingestionHubName
output COSMOS_ACCOUNT_NAME string = cosmos.outputs.name
output COSMOS_ACCOUNT_ENDPOINT string = cosmos.outputs.endpoint
output COSMOS_DATABASE_NAME string = cosmos.outputs.databaseName
output COSMOS_READINGS_CONTAINER string = readingsContainerName
output COSMOS_DEVICES_CONTAINER string = devicesContainerName
output COSMOS_ARCHIVE_CONTAINER string = archiveContainerName
output COSMOS_DEADLETTERS_CONTAINER string = deadLettersContainerName
output STORAGE_ACCOUNT_NAME string = storage.outputs.name
output APPLICATIONINSIGHTS_NAME string = insights.outputs.applicationInsightsName
output APPLICATIONINSIGHTS_CONNECTION_STRING string = insights.outputs.connectionString
