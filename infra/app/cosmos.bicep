// Cosmos DB for NoSQL: the account, the database and the four containers the handler writes.
// Key authentication is off (disableLocalAuth): the handler and loadgen verify use Entra tokens
// with the data-plane role assigned in rbac.bicep. The containers are created here, not by the
// handler (Cosmos__CreateIfNotExists=false), because an identity with only the data-plane role
// cannot create containers.

@description('Name of the Cosmos DB account (3-44 lowercase letters, digits and hyphens).')
@minLength(3)
@maxLength(44)
param name string

@description('Azure region for the account (one region: serverless allows no more).')
param location string = resourceGroup().location

@description('Tags applied to the account.')
param tags object = {}

@description('serverless: pay per request unit, nothing when idle, up to 5,000 RU/s per physical partition. autoscale: provisioned RU/s that scale between 10% and 100% of the maximum.')
@allowed([
  'serverless'
  'autoscale'
])
param throughputMode string = 'serverless'

@description('autoscale only: the database-wide maximum RU/s shared by the four containers (a multiple of 1000). Ignored when serverless.')
@minValue(1000)
@maxValue(1000000)
param autoscaleMaxThroughput int = 4000

@description('Name of the database.')
param databaseName string = 'sensorpipeline'

@description('Name of the container of live readings (GeoJSON Features, partition key /deviceId).')
param readingsContainerName string = 'readings'

@description('Name of the container of the latest state per device (partition key /deviceId).')
param devicesContainerName string = 'devices'

@description('Name of the container of stale readings (partition key /deviceId).')
param archiveContainerName string = 'archive'

@description('Name of the container of dead letters (partition key /id, so one bad producer cannot make a hot partition).')
param deadLettersContainerName string = 'deadletters'

@description('Default time to live of a reading in seconds; -1 keeps readings until deleted. Cosmos DB rejects 0 (main.bicep checks).')
@minValue(-1)
@maxValue(2147483647)
param readingsTtlSeconds int = 604800

@description('Resource id of the Log Analytics workspace that receives the account\'s diagnostic logs.')
param logAnalyticsWorkspaceId string

@description('Send DataPlaneRequests (one row per request) as well as PartitionKeyRUConsumption.')
param requestLogs bool = true

var serverless = throughputMode == 'serverless'

// Every document carries /deviceId, so writes spread across devices; dead letters spread by id.
var containers = [
  {
    name: readingsContainerName
    partitionKey: '/deviceId'
    defaultTtl: readingsTtlSeconds
    spatial: true
  }
  {
    name: devicesContainerName
    partitionKey: '/deviceId'
    defaultTtl: null
    spatial: true
  }
  {
    name: archiveContainerName
    partitionKey: '/deviceId'
    defaultTtl: null
    spatial: false
  }
  {
    name: deadLettersContainerName
    partitionKey: '/id'
    defaultTtl: null
    spatial: false
  }
]

resource account 'Microsoft.DocumentDB/databaseAccounts@2024-11-15' = {
  name: name
  location: location
  tags: tags
  kind: 'GlobalDocumentDB'
  properties: {
    databaseAccountOfferType: 'Standard'
    disableLocalAuth: true
    // Keys cannot change databases or containers either: only ARM (this template) can.
    disableKeyBasedMetadataWriteAccess: true
    minimalTlsVersion: 'Tls12'
    publicNetworkAccess: 'Enabled'
    consistencyPolicy: {
      defaultConsistencyLevel: 'Session'
    }
    locations: [
      {
        locationName: location
        failoverPriority: 0
        isZoneRedundant: false
      }
    ]
    capabilities: serverless ? [
      {
        name: 'EnableServerless'
      }
    ] : []
  }
}

resource database 'Microsoft.DocumentDB/databaseAccounts/sqlDatabases@2024-11-15' = {
  parent: account
  name: databaseName
  properties: {
    resource: {
      id: databaseName
    }
    // One shared autoscale budget for the four containers keeps the scaling knob single.
    options: serverless ? {} : {
      autoscaleSettings: {
        maxThroughput: autoscaleMaxThroughput
      }
    }
  }
}

resource sqlContainers 'Microsoft.DocumentDB/databaseAccounts/sqlDatabases/containers@2024-11-15' = [for c in containers: {
  parent: database
  name: c.name
  properties: {
    resource: union({
      id: c.name
      partitionKey: {
        paths: [
          c.partitionKey
        ]
        kind: 'Hash'
        version: 2
      }
      indexingPolicy: {
        indexingMode: 'consistent'
        automatic: true
        includedPaths: [
          {
            path: '/*'
          }
        ]
        excludedPaths: [
          {
            path: '/"_etag"/?'
          }
        ]
        // Spatial paths take the /* form; the GeoJSON geometry of each Feature lives under /geometry.
        spatialIndexes: c.spatial ? [
          {
            path: '/geometry/*'
            types: [
              'Point'
            ]
          }
        ] : []
      }
    }, c.defaultTtl == null ? {} : {
      defaultTtl: c.defaultTtl
    })
  }
}]

output name string = account.name
output resourceId string = account.id
output endpoint string = account.properties.documentEndpoint
output databaseName string = database.name

// Cosmos DB's own logs, in resource-specific tables (logAnalyticsDestinationType Dedicated), for the workbook:
// CDBDataPlaneRequests (the 429 chart, cosmos-429-diagnostics.kql) and CDBPartitionKeyRUConsumption (partition
// heat, partition-heat.kql). Without this setting both charts stay empty. DataPlaneRequests is one row per request.
resource diagnostics 'Microsoft.Insights/diagnosticSettings@2021-05-01-preview' = {
  name: 'workbook-logs'
  scope: account
  properties: {
    workspaceId: logAnalyticsWorkspaceId
    logAnalyticsDestinationType: 'Dedicated'
    logs: [
      {
        category: 'DataPlaneRequests'
        enabled: requestLogs
      }
      {
        category: 'PartitionKeyRUConsumption'
        enabled: true
      }
    ]
  }
}
