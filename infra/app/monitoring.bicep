// Monitoring on top of Application Insights: alert rules and the SensorPipeline workbook.
//
// The alerts read the pre-aggregated metrics the handler sends with GetMetric (customMetrics):
// FreshnessMs (now - enqueued time of the oldest event in a batch) and DeadLetters (count).
// The workbook's layout is infra/workbook/workbook.json; each chart's query is infra/workbook/<name>.kql,
// embedded here with loadTextContent so the .kql files stay the single source (devhost's dashboard computes
// the same figures locally, with the same percentile arithmetic).

@description('Resource id of the Application Insights component the alerts query.')
param applicationInsightsId string

@description('Azure region for the alert rules.')
param location string = resourceGroup().location

@description('Tags applied to the alert rules and action group.')
param tags object = {}

@description('Suffix that makes the alert rule names unique (the deployment resourceToken).')
@minLength(1)
param nameSuffix string

@description('Freshness alert: fire when the worst batch freshness in a 5-minute window exceeds this many milliseconds. Below the 5-minute max age, so it warns before readings turn stale.')
@minValue(1000)
@maxValue(3600000)
param freshnessThresholdMs int = 60000

@description('E-mail address notified when an alert fires; empty creates no action group (alerts still show in the portal).')
param alertEmail string = ''

@description('Resource id of the Cosmos DB account whose platform metrics feed the workbook\'s 429 chart.')
param cosmosAccountId string

var notify = !empty(alertEmail)

resource actionGroup 'Microsoft.Insights/actionGroups@2023-01-01' = if (notify) {
  name: 'ag-sensorpipeline-${nameSuffix}'
  location: 'Global'
  tags: tags
  properties: {
    groupShortName: 'sensorpipe'
    enabled: true
    emailReceivers: [
      {
        name: 'owner'
        emailAddress: alertEmail
        useCommonAlertSchema: true
      }
    ]
  }
}

var actions = notify ? {
  actionGroups: [
    actionGroup.id
  ]
} : {
  actionGroups: []
}

// Every alert looks back 15 minutes, evaluated every 5: the handler sends one aggregate per series every 5 minutes
// (Telemetry__MetricFlushInterval), stamped with its period's start, sent at its end and ingested a few minutes later;
// a 5-minute window would have moved past an aggregate before it was queryable. A longer window only keeps a
// fired alert open up to 10 minutes longer (autoMitigate closes it).

// Freshness is the lateness signal of "Performance tuning - Event streaming"
// (https://learn.microsoft.com/azure/architecture/performance/event-streaming): a consumer that falls behind shows it here first,
// minutes before its readings cross the max age and go to the archive instead of the live view.
resource freshnessAlert 'Microsoft.Insights/scheduledQueryRules@2023-12-01' = {
  name: 'alert-freshness-${nameSuffix}'
  location: location
  tags: tags
  kind: 'LogAlert'
  properties: {
    displayName: 'SensorPipeline: freshness over ${freshnessThresholdMs} ms'
    description: 'The oldest event in a batch waited longer than the threshold before a function processed it: a consumer is falling behind.'
    severity: 2
    enabled: true
    scopes: [
      applicationInsightsId
    ]
    evaluationFrequency: 'PT5M'
    windowSize: 'PT15M'
    criteria: {
      allOf: [
        {
          query: 'customMetrics | where name == "FreshnessMs" | summarize FreshnessMs = max(valueMax) by bin(timestamp, 1m)'
          timeAggregation: 'Maximum'
          metricMeasureColumn: 'FreshnessMs'
          operator: 'GreaterThan'
          threshold: freshnessThresholdMs
          failingPeriods: {
            numberOfEvaluationPeriods: 1
            minFailingPeriodsToAlert: 1
          }
        }
      ]
    }
    autoMitigate: true
    actions: actions
  }
}

// Any dead letter means a reading the pipeline could not store: someone should look at the
// reason kept with it in the deadletters container.
resource deadLetterAlert 'Microsoft.Insights/scheduledQueryRules@2023-12-01' = {
  name: 'alert-deadletters-${nameSuffix}'
  location: location
  tags: tags
  kind: 'LogAlert'
  properties: {
    displayName: 'SensorPipeline: dead letters written'
    description: 'The pipeline dead-lettered at least one event or reading; the reason is stored with it in the deadletters container.'
    severity: 2
    enabled: true
    scopes: [
      applicationInsightsId
    ]
    evaluationFrequency: 'PT5M'
    windowSize: 'PT15M'
    criteria: {
      allOf: [
        {
          query: 'customMetrics | where name == "DeadLetters" | summarize DeadLetters = sum(valueSum) by bin(timestamp, 1m)'
          timeAggregation: 'Total'
          metricMeasureColumn: 'DeadLetters'
          operator: 'GreaterThan'
          threshold: 0
          failingPeriods: {
            numberOfEvaluationPeriods: 1
            minFailingPeriodsToAlert: 1
          }
        }
      ]
    }
    autoMitigate: true
    actions: actions
  }
}

// A partition whose batch keeps failing reports a growing FreshnessMs on every retry: page well before its backlog's age
// reaches the hub's retention (24 h), where Event Hubs would delete unread events. Systemic failures (every event of a
// batch failing on its own: a missing role, a deleted container) page at once; nothing is dead-lettered for them.
resource stallAlerts 'Microsoft.Insights/scheduledQueryRules@2023-12-01' = [for rule in [
  { name: 'stall', title: 'a partition\'s oldest unprocessed event is over 1 hour old (retention: 24 h)', query: 'customMetrics | where name == "FreshnessMs" | extend Partition = tostring(customDimensions.Partition), Function = tostring(customDimensions.Function) | summarize Value = max(valueMax) by bin(timestamp, 1m), Function, Partition', threshold: 3600000 }
  { name: 'systemic', title: 'systemic failure: the store refuses a known-good write too, or the handler refuses requests from the host (store or configuration)', query: 'customMetrics | where name == "SystemicFailures" | summarize Value = sum(valueSum) by bin(timestamp, 1m)', threshold: 0 }
]: {
  name: 'alert-${rule.name}-${nameSuffix}'
  location: location
  tags: tags
  kind: 'LogAlert'
  properties: {
    displayName: 'SensorPipeline: ${rule.title}'
    severity: 1
    enabled: true
    scopes: [
      applicationInsightsId
    ]
    evaluationFrequency: 'PT5M'
    windowSize: 'PT15M'
    criteria: {
      allOf: [
        {
          query: rule.query
          timeAggregation: 'Maximum'
          metricMeasureColumn: 'Value'
          operator: 'GreaterThan'
          threshold: rule.threshold
          failingPeriods: {
            numberOfEvaluationPeriods: 1
            minFailingPeriodsToAlert: 1
          }
        }
      ]
    }
    autoMitigate: true
    actions: actions
  }
}]

// The workbook reads Application Insights (customMetrics) for the handler's metrics and the component's Log Analytics
// workspace for Cosmos DB's own diagnostics (throttled requests, partition heat).
resource insightsComponent 'Microsoft.Insights/components@2020-02-02' existing = {
  name: last(split(applicationInsightsId, '/'))
}

var workbookLayout = loadJsonContent('../workbook/workbook.json')
var workbookQueries = {
  throughput: loadTextContent('../workbook/throughput.kql')
  freshness: loadTextContent('../workbook/freshness.kql')
  'e2e-percentiles': loadTextContent('../workbook/e2e-percentiles.kql')
  'device-to-store-percentiles': loadTextContent('../workbook/device-to-store-percentiles.kql')
  'received-vs-written': loadTextContent('../workbook/received-vs-written.kql')
  'stale-deadletters': loadTextContent('../workbook/stale-deadletters.kql')
  'cosmos-throttled': loadTextContent('../workbook/cosmos-throttled.kql')
  'partition-heat': loadTextContent('../workbook/partition-heat.kql')
  'telemetry-volume': loadTextContent('../workbook/telemetry-volume.kql')
}

// The workspace id is only known at deployment time and a variable's for-body must be computable up front,
// so workspace queries carry a placeholder that serializedData replaces.
var workspacePlaceholder = '__SENSORPIPELINE_WORKSPACE_ID__'
var workbookQueryItems = [for item in workbookLayout.queries: {
  type: 3
  name: item.name
  customWidth: item.customWidth
  content: union(item.content, {
    query: workbookQueries[item.name]
    crossComponentResources: [
      item.content.resourceType == 'microsoft.operationalinsights/workspaces' ? workspacePlaceholder : applicationInsightsId
    ]
  })
}]

// Cosmos DB's throttling comes from Azure Monitor platform metrics (TotalRequests with StatusCode 429, per container):
// no diagnostic log row per request. The metric has no per-request detail (operation, partition key, RU charge).
var cosmosPlaceholder = '__SENSORPIPELINE_COSMOS_ID__'

var workbookContent = {
  version: workbookLayout.version
  items: concat(workbookLayout.items, workbookQueryItems, workbookLayout.metrics)
  isLocked: false
  fallbackResourceIds: [
    applicationInsightsId
  ]
}

resource workbook 'Microsoft.Insights/workbooks@2023-06-01' = {
  name: guid(resourceGroup().id, 'sensorpipeline-workbook', nameSuffix)
  location: location
  tags: union(tags, {
    'hidden-title': 'SensorPipeline'
  })
  kind: 'shared'
  properties: {
    displayName: 'SensorPipeline'
    category: 'workbook'
    sourceId: applicationInsightsId
    serializedData: replace(replace(string(workbookContent), workspacePlaceholder, insightsComponent.properties.WorkspaceResourceId), cosmosPlaceholder, cosmosAccountId)
  }
}

output freshnessAlertId string = freshnessAlert.id
output deadLetterAlertId string = deadLetterAlert.id
output workbookId string = workbook.id
