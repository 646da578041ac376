// Event Hubs: one namespace, the three hubs of the pipeline and one consumer group per function.
// Local (SAS) authentication is off: every client - the Functions host, the scale controller and
// loadgen - authenticates with Microsoft Entra ID, so no key exists that could leak.

@description('Name of the Event Hubs namespace (6-50 characters, starts with a letter).')
@minLength(6)
@maxLength(50)
param name string

@description('Azure region for the namespace.')
param location string = resourceGroup().location

@description('Tags applied to the namespace.')
param tags object = {}

@description('Tier: Standard (throughput units, auto-inflate) or Premium (processing units, up to 100 partitions per hub).')
@allowed([
  'Standard'
  'Premium'
])
param sku string = 'Standard'

@description('Throughput units (Standard, 1 TU = 1 MB/s or 1,000 events/s in) or processing units (Premium: 1, 2, 4, 6, 8, 10, 12 or 16).')
@minValue(1)
@maxValue(40)
param capacity int = 1

@description('Standard only: the auto-inflate ceiling in throughput units; 0 turns auto-inflate off. Ignored on Premium.')
@minValue(0)
@maxValue(40)
param maximumThroughputUnits int = 10

@description('Partitions per hub: the ceiling of parallel consumers per function. Standard allows at most 32; Premium and Dedicated 100 (main.bicep enforces the Standard cap).')
@minValue(1)
@maxValue(100)
param partitionCount int = 32

@description('How long events stay in each hub, in hours (Standard: at most 168).')
@minValue(1)
@maxValue(168)
param retentionHours int = 24

@description('The hubs, each with the one consumer group its function reads with: [{ name, consumerGroup }].')
param hubs array

@description('Enabled: reachable from public networks (Entra ID still required). Disabled: only through private endpoints (private-endpoints.bicep, the private network choice of main.bicep).')
@allowed([
  'Enabled'
  'Disabled'
])
param publicNetworkAccess string = 'Enabled'

@description('Resource id of the Log Analytics workspace that receives the namespace\'s audit logs.')
param logAnalyticsWorkspaceId string

var isStandard = sku == 'Standard'

resource namespace 'Microsoft.EventHub/namespaces@2024-01-01' = {
  name: name
  location: location
  tags: tags
  sku: {
    name: sku
    tier: sku
    capacity: capacity
  }
  properties: {
    disableLocalAuth: true
    minimumTlsVersion: '1.2'
    publicNetworkAccess: publicNetworkAccess
    // Auto-inflate exists only on Standard; Premium scales by processing units instead.
    isAutoInflateEnabled: isStandard && maximumThroughputUnits > 0
    maximumThroughputUnits: isStandard && maximumThroughputUnits > 0 ? max(maximumThroughputUnits, capacity) : 0
  }
}

resource eventHubs 'Microsoft.EventHub/namespaces/eventhubs@2024-01-01' = [for hub in hubs: {
  parent: namespace
  name: hub.name
  properties: {
    partitionCount: partitionCount
    retentionDescription: {
      cleanupPolicy: 'Delete'
      retentionTimeInHours: retentionHours
    }
  }
}]

// One consumer group per function: each function keeps its own checkpoints, so one function
// falling behind never holds back another.
resource consumerGroups 'Microsoft.EventHub/namespaces/eventhubs/consumergroups@2024-01-01' = [for (hub, i) in hubs: {
  parent: eventHubs[i]
  name: hub.consumerGroup
  properties: {
    userMetadata: 'Read by the ${hub.consumerGroup} function of SensorPipeline.'
  }
}]

// Audit logs, in resource-specific tables (AZMS*). OperationalLogs: every management operation on the namespace, its
// hubs and consumer groups (a row each: none while the pipeline runs). RuntimeAuditLogs: who sent or received, with
// which identity, from which address, aggregated per minute per client and operation — Premium and Dedicated only, so
// it is left out on Standard (the category does not exist there).
var auditCategories = concat(['OperationalLogs'], isStandard ? [] : ['RuntimeAuditLogs'])

resource diagnostics 'Microsoft.Insights/diagnosticSettings@2021-05-01-preview' = {
  name: 'audit-logs'
  scope: namespace
  properties: {
    workspaceId: logAnalyticsWorkspaceId
    logAnalyticsDestinationType: 'Dedicated'
    logs: [for category in auditCategories: {
      category: category
      enabled: true
    }]
  }
}

output name string = namespace.name
output resourceId string = namespace.id
output fullyQualifiedNamespace string = '${namespace.name}.servicebus.windows.net'
