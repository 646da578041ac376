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

@description('serverless: pay per request unit, nothing when idle, up to 5,000 RU/s per physical partition. provisioned: RU/s per container (the four settings below), never a database budget the containers share.')
@allowed([
  'serverless'
  'provisioned'
])
param throughputMode string = 'serverless'

@description('provisioned only: manual RU/s of the readings container (a flat load: manual costs 2/3 of autoscale for the same peak).')
@minValue(400)
param readingsThroughput int = 400

@description('provisioned only: manual RU/s of the devices container.')
@minValue(400)
param devicesThroughput int = 400

@description('provisioned only: autoscale maximum RU/s of the archive container (bursts of stale readings after a backlog).')
@minValue(1000)
param archiveAutoscaleMax int = 1000

@description('provisioned only: autoscale maximum RU/s of the deadletters container (bursts of poison).')
@minValue(1000)
param deadLettersAutoscaleMax int = 1000

@description('Replicate the account across availability zones (only at creation).')
param zoneRedundant bool = false

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

@description('Default time to live of a stale reading in the archive, in seconds; -1 keeps them. Cosmos DB rejects 0 (main.bicep checks).')
@minValue(-1)
@maxValue(2147483647)
param archiveTtlSeconds int = 2592000

@description('Resource id of the Log Analytics workspace that receives the account\'s diagnostic logs.')
param logAnalyticsWorkspaceId string

@description('Enabled: reachable from public networks (Entra ID still required). Disabled: only through private endpoints (private-endpoints.bicep, the private network choice of main.bicep).')
@allowed([
  'Enabled'
  'Disabled'
])
param publicNetworkAccess string = 'Enabled'

@description('Send DataPlaneRequests (one Log Analytics row per request) as well as PartitionKeyRUConsumption. Off by default: at full load it costs more than the rest of the pipeline.')
param requestLogs bool = false

@description('Send PartitionKeyRUConsumption (the workbook\'s partition-heat chart): a row per partition key and operation per second, so about a row per request when each device writes once a second. On by default (the dev profile); ./pipeline plan turns it off for a rate.')
param partitionKeyLogs bool = true

var serverless = throughputMode == 'serverless'

// Each container indexes exactly the paths the project's queries use, nothing else: every indexed term costs 0.2 RU on
// each write and again on the TTL delete. One file, which the handler also embeds for the containers it creates
// locally; why each path is there: docs/cost.md. `id` and `_ts` are always indexed.
var indexingPolicies = loadJsonContent('indexing-policies.json')

// Every document carries /deviceId, so writes spread across devices; dead letters spread by id and never expire
// (they wait for a fix and a redrive). Throughput is each container's own: readings and devices take a flat load
// (manual RU/s), archive and deadletters take bursts (autoscale, billed at the hour's peak, at least 10 % of it).
var containers = [
  {
    name: readingsContainerName
    partitionKey: '/deviceId'
    defaultTtl: readingsTtlSeconds
    policy: 'readings'
    throughput: {
      throughput: readingsThroughput
    }
  }
  {
    name: devicesContainerName
    partitionKey: '/deviceId'
    defaultTtl: null
    policy: 'devices'
    throughput: {
      throughput: devicesThroughput
    }
  }
  {
    name: archiveContainerName
    partitionKey: '/deviceId'
    defaultTtl: archiveTtlSeconds
    policy: 'archive'
    throughput: {
      autoscaleSettings: {
        maxThroughput: archiveAutoscaleMax
      }
    }
  }
  {
    name: deadLettersContainerName
    partitionKey: '/id'
    defaultTtl: null
    policy: 'deadletters'
    throughput: {
      autoscaleSettings: {
        maxThroughput: deadLettersAutoscaleMax
      }
    }
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
    publicNetworkAccess: publicNetworkAccess
    consistencyPolicy: {
      defaultConsistencyLevel: 'Session'
    }
    locations: [
      {
        locationName: location
        failoverPriority: 0
        isZoneRedundant: zoneRedundant
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
    // No database throughput: a shared budget would cap readings at whatever the other containers leave.
    options: {}
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
      indexingPolicy: indexingPolicies[c.policy]
    }, c.defaultTtl == null ? {} : {
      defaultTtl: c.defaultTtl
    })
    options: serverless ? {} : c.throughput
  }
}]

output name string = account.name
output resourceId string = account.id
output endpoint string = account.properties.documentEndpoint
output databaseName string = database.name

// Cosmos DB's own logs, in resource-specific tables (logAnalyticsDestinationType Dedicated): CDBPartitionKeyRUConsumption
// for the workbook's partition-heat chart (partition-heat.kql) when partitionKeyLogs is on (the default; a plan for a
// rate turns it off: per key per second, it is nearly a row per request); CDBDataPlaneRequests (one row per request)
// only when requestLogs is on. The workbook's 429 chart reads the platform metric TotalRequests instead (monitoring.bicep).
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
        enabled: partitionKeyLogs
      }
    ]
  }
}

// The audit log, in its own setting so the workbook's stays as it is: ControlPlaneRequests records every control-plane
// change to the account (containers, indexing and throughput, data role assignments, network rules, keys, failover),
// a row each — none while the pipeline runs.
resource auditDiagnostics 'Microsoft.Insights/diagnosticSettings@2021-05-01-preview' = {
  name: 'audit-logs'
  scope: account
  properties: {
    workspaceId: logAnalyticsWorkspaceId
    logAnalyticsDestinationType: 'Dedicated'
    logs: [
      {
        category: 'ControlPlaneRequests'
        enabled: true
      }
    ]
  }
}
