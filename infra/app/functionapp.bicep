// The Function App: a Linux Flex Consumption app running the SensorPipeline custom handler
// (functionAppConfig.runtime 'custom'). It runs as the user-assigned identity, and every
// connection below is identity-based: no key, SAS or connection string with a secret.
//
// Flex Consumption takes the runtime from functionAppConfig, not from app settings: it rejects
// FUNCTIONS_WORKER_RUNTIME (and FUNCTIONS_EXTENSION_VERSION, WEBSITE_RUN_FROM_PACKAGE, ...), so
// runtime.name 'custom' below is what gives the handler FUNCTIONS_WORKER_RUNTIME=custom.

@description('Name of the Function App (2-60 characters, globally unique).')
@minLength(2)
@maxLength(60)
param name string

@description('Name of the Flex Consumption plan.')
@minLength(1)
@maxLength(60)
param planName string

@description('Azure region for the plan and the app (a region that offers Flex Consumption).')
param location string = resourceGroup().location

@description('Tags applied to the plan and the app; the app adds azd-service-name.')
param tags object = {}

@description('azure.yaml service name this app implements (azd finds the app by this tag).')
param serviceName string = 'pipeline'

@description('Resource id of the user-assigned identity the app runs as.')
param identityId string

@description('Client id of that identity: the __clientId of every identity-based connection.')
param identityClientId string

@description('Blob endpoint of the host storage account, ending in a slash.')
param storageBlobEndpoint string

@description('Queue endpoint of the host storage account, ending in a slash.')
param storageQueueEndpoint string

@description('Table endpoint of the host storage account, ending in a slash.')
param storageTableEndpoint string

@description('Blob container the plan deploys the package from.')
param deploymentContainerName string

@description('Event Hubs namespace host name, <namespace>.servicebus.windows.net.')
param eventHubsFullyQualifiedNamespace string

@description('Hub the splitter reads (ingestion).')
param ingestionHubName string

@description('Consumer group the splitter reads the ingestion hub with (app setting SplitterConsumerGroup).')
param splitterConsumerGroup string

@description('One processor per sensor kind (core/SensorPipeline.Core/sensor-kinds.json): { function, hub, hubSetting, consumerGroup }; the splitter writes the kind\'s readings to the hub, the function reads it with consumerGroup, the app setting hubSetting names the hub and <function>ConsumerGroup the group.')
param processors array

@description('Cosmos DB account endpoint, https://<account>.documents.azure.com:443/.')
param cosmosEndpoint string

@description('Cosmos DB database name.')
param cosmosDatabaseName string

@description('Container of live readings.')
param readingsContainerName string

@description('Container of the latest state per device.')
param devicesContainerName string

@description('Container of stale readings.')
param archiveContainerName string

@description('Container of dead letters.')
param deadLettersContainerName string

@description('Default TTL of the readings container in seconds, passed to the handler for reference (-1 = no expiry).')
param readingsTtlSeconds int

@description('Application Insights connection string (names the component; with local auth off it is not a credential).')
param applicationInsightsConnectionString string

@description('Pipeline__MaxAge: a reading older than this (hh:mm:ss) since ingestion is stale and goes to the archive.')
param pipelineMaxAge string = '00:05:00'

@description('Pipeline__WriteParallelism: concurrent Cosmos DB writes per invocation.')
@minValue(1)
@maxValue(256)
param writeParallelism int = 32

@description('Memory per instance in MB (Flex Consumption sizes: 512, 2048 or 4096).')
@allowed([
  512
  2048
  4096
])
param instanceMemoryMB int = 2048

@description('Upper bound on instances for the whole app (Flex Consumption: 40-1000). Event Hubs functions use at most one instance per partition each.')
@minValue(40)
@maxValue(1000)
param maximumInstanceCount int = 100

@description('Always-ready instances per function: { Splitter: n, WeatherProcessor: n, ... }; 0 or absent = scale from zero, billed only while running.')
param alwaysReady object = {}

var functionNames = concat(['Splitter'], map(processors, p => p.function))

@description('Resource id of the Log Analytics workspace that receives the app\'s audit logs.')
param logAnalyticsWorkspaceId string

@description('Resource id of the subnet (delegated to Microsoft.App/environments) the app joins by VNet integration; empty = none (the public network choice).')
param virtualNetworkSubnetId string = ''

resource plan 'Microsoft.Web/serverfarms@2024-04-01' = {
  name: planName
  location: location
  tags: tags
  kind: 'functionapp'
  sku: {
    name: 'FC1'
    tier: 'FlexConsumption'
  }
  properties: {
    reserved: true
  }
}

resource functionApp 'Microsoft.Web/sites@2024-04-01' = {
  name: name
  location: location
  tags: union(tags, {
    'azd-service-name': serviceName
  })
  kind: 'functionapp,linux'
  identity: {
    type: 'UserAssigned'
    userAssignedIdentities: {
      '${identityId}': {}
    }
  }
  properties: {
    serverFarmId: plan.id
    httpsOnly: true
    virtualNetworkSubnetId: empty(virtualNetworkSubnetId) ? null : virtualNetworkSubnetId
    functionAppConfig: {
      deployment: {
        storage: {
          type: 'blobContainer'
          value: '${storageBlobEndpoint}${deploymentContainerName}'
          authentication: {
            type: 'UserAssignedIdentity'
            userAssignedIdentityResourceId: identityId
          }
        }
      }
      scaleAndConcurrency: {
        instanceMemoryMB: instanceMemoryMB
        maximumInstanceCount: maximumInstanceCount
        alwaysReady: map(filter(functionNames, f => int(alwaysReady[?f] ?? 0) > 0), f => {
          name: 'function:${f}'
          instanceCount: int(alwaysReady[f])
        })
      }
      runtime: {
        name: 'custom'
        version: '1.0'
      }
    }
    siteConfig: {
      minTlsVersion: '1.2'
      // Each kind's hub name first (function.json's %WeatherHubName%, and the splitter's sends), then each function's
      // consumer group (function.json's %<function>ConsumerGroup%: a local run against this namespace sets its own),
      // then the rest.
      appSettings: concat(map(processors, p => {
        name: p.hubSetting
        value: p.hub
      }), map(processors, p => {
        name: '${p.function}ConsumerGroup'
        value: p.consumerGroup
      }), [
        {
          name: 'SplitterConsumerGroup'
          value: splitterConsumerGroup
        }
        // Host storage (leases, Event Hubs checkpoints, host internals). Service URIs rather than
        // __accountName (one or the other, never both) so the template also works in clouds
        // with other storage suffixes.
        {
          name: 'AzureWebJobsStorage__blobServiceUri'
          value: storageBlobEndpoint
        }
        {
          name: 'AzureWebJobsStorage__queueServiceUri'
          value: storageQueueEndpoint
        }
        {
          name: 'AzureWebJobsStorage__tableServiceUri'
          value: storageTableEndpoint
        }
        {
          name: 'AzureWebJobsStorage__credential'
          value: 'managedidentity'
        }
        {
          name: 'AzureWebJobsStorage__clientId'
          value: identityClientId
        }
        // "connection": "EventHubConnection" in every function.json resolves to these, and the splitter's Event Hubs
        // client reads them too (the namespace and the identity's client id).
        {
          name: 'EventHubConnection__fullyQualifiedNamespace'
          value: eventHubsFullyQualifiedNamespace
        }
        {
          name: 'EventHubConnection__credential'
          value: 'managedidentity'
        }
        {
          name: 'EventHubConnection__clientId'
          value: identityClientId
        }
        {
          name: 'IngestionHubName'
          value: ingestionHubName
        }
        // The handler's own settings (docs/conventions.md). Cosmos__AuthKey stays unset: identity only.
        {
          name: 'Cosmos__AccountEndpoint'
          value: cosmosEndpoint
        }
        {
          name: 'Cosmos__ManagedIdentityClientId'
          value: identityClientId
        }
        {
          name: 'Cosmos__DatabaseName'
          value: cosmosDatabaseName
        }
        {
          name: 'Cosmos__ReadingsContainer'
          value: readingsContainerName
        }
        {
          name: 'Cosmos__DevicesContainer'
          value: devicesContainerName
        }
        {
          name: 'Cosmos__ArchiveContainer'
          value: archiveContainerName
        }
        {
          name: 'Cosmos__DeadLettersContainer'
          value: deadLettersContainerName
        }
        {
          name: 'Cosmos__ReadingsTtlSeconds'
          value: string(readingsTtlSeconds)
        }
        // The containers exist already (cosmos.bicep); the app identity may not create them.
        {
          name: 'Cosmos__CreateIfNotExists'
          value: 'false'
        }
        {
          name: 'Pipeline__MaxAge'
          value: pipelineMaxAge
        }
        {
          name: 'Pipeline__WriteParallelism'
          value: string(writeParallelism)
        }
        // A producer's retry straddling the max age leaves a reading in one container only (live wins).
        {
          name: 'Pipeline__RedeliveryWindow'
          value: '00:00:30'
        }
        // In-invocation retries ride out short throttling; longer outages fail the invocation and host.json's
        // retry policy (maxRetryCount -1) re-runs the batch before the checkpoint moves.
        {
          name: 'Pipeline__TransientRetryCount'
          value: '6'
        }
        {
          name: 'Pipeline__TransientRetryBaseDelay'
          value: '00:00:00.100'
        }
        {
          name: 'Pipeline__TransientRetryMaxDelay'
          value: '00:00:05'
        }
        // The splitter's sends to the processor hubs: partitions at once per hub, and the client's retries before the
        // invocation fails and host.json's retry policy re-runs the batch.
        {
          name: 'Forwarding__MaxConcurrentSends'
          value: '8'
        }
        {
          name: 'Forwarding__MaxRetries'
          value: '3'
        }
        {
          name: 'Forwarding__TryTimeout'
          value: '00:00:30'
        }
        // A batch failing 3 times for a reason no retry fixes is bisected: poison dead-lettered, systemic kept and alerted.
        {
          name: 'Pipeline__IsolateAfterAttempts'
          value: '3'
        }
        // Three batches in a row failing whole (every event alone) is the handler's or its environment's fault: systemic, kept.
        {
          name: 'Pipeline__SystemicAfterWhollyFailedBatches'
          value: '3'
        }
        // W: a device's state is written within 10 s of its oldest unwritten reading (device-state writes at most 0.1 per reading
        // at 1 reading/s per device); a crashed instance's pending states are rebuilt from readings once its mark expires.
        {
          name: 'Pipeline__DeviceStateLag'
          value: '00:00:10'
        }
        {
          name: 'Pipeline__DeviceStateMarkExpiry'
          value: '00:00:30'
        }
        {
          name: 'Pipeline__DeviceStateClockMargin'
          value: '00:00:05'
        }
        // A reading dated more than this after its enqueue (a fast device clock) is stored but never becomes the device's state.
        {
          name: 'Pipeline__MaxClockSkew'
          value: '00:05:00'
        }
        {
          name: 'Cosmos__OperationTimeout'
          value: '00:00:10'
        }
        // Batch requests of up to 100 documents for any write phase of 20 or more; smaller ones go at once as point writes.
        {
          name: 'Pipeline__BulkMinimumDocuments'
          value: '20'
        }
        // Gateway: one HTTPS endpoint and few connections; bulk spreads its per-request cost (docs/writing-to-cosmos-db.md).
        {
          name: 'Cosmos__ConnectionMode'
          value: 'Gateway'
        }
        // One aggregation period per 5 minutes (the alerts' evaluation frequency) and 8 buckets per doubling:
        // pre-aggregated telemetry whose volume grows with instances, not events (telemetry cost in docs/benchmarks.md).
        {
          name: 'Telemetry__MetricFlushInterval'
          value: '00:05:00'
        }
        {
          name: 'Telemetry__PartitionLagThreshold'
          value: '00:01:00'
        }
        {
          name: 'Telemetry__HistogramBucketsPerDoubling'
          value: '8'
        }
        {
          name: 'APPLICATIONINSIGHTS_CONNECTION_STRING'
          value: applicationInsightsConnectionString
        }
        // Local auth is off on the component: telemetry must carry an Entra token of this identity.
        {
          name: 'APPLICATIONINSIGHTS_AUTHENTICATION_STRING'
          value: 'Authorization=AAD;ClientId=${identityClientId}'
        }
      ])
    }
  }
}

// Basic (user name + password) publishing stays off: azd deploys with an Entra token.
resource ftpCredentials 'Microsoft.Web/sites/basicPublishingCredentialsPolicies@2024-04-01' = {
  parent: functionApp
  name: 'ftp'
  properties: {
    allow: false
  }
}

resource scmCredentials 'Microsoft.Web/sites/basicPublishingCredentialsPolicies@2024-04-01' = {
  parent: functionApp
  name: 'scm'
  properties: {
    allow: false
  }
}

// The audit category group, not a list: it holds the App Service audit categories the app's plan offers (access to the
// SCM/Kudu and FTP endpoints, IP restriction hits, site content changes), and Flex Consumption does not offer every
// App Service category, so naming one it lacks would fail the deployment. This app has no HTTP trigger and deploys a
// few times a day at most: a handful of rows, never one per reading. FunctionAppLogs (a row per host log line) is
// left out: the host's logs already go to Application Insights.
resource diagnostics 'Microsoft.Insights/diagnosticSettings@2021-05-01-preview' = {
  name: 'audit-logs'
  scope: functionApp
  properties: {
    workspaceId: logAnalyticsWorkspaceId
    logs: [
      {
        categoryGroup: 'audit'
        enabled: true
      }
    ]
  }
}

output name string = functionApp.name
output resourceId string = functionApp.id
output defaultHostName string = functionApp.properties.defaultHostName
output planId string = plan.id
