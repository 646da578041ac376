// Log Analytics + workspace-based Application Insights. Local (instrumentation-key) ingestion is
// off: the handler and the Functions host send telemetry with an Entra token of the app identity
// (APPLICATIONINSIGHTS_AUTHENTICATION_STRING), so the connection string alone can write nothing.

@description('Name of the Log Analytics workspace.')
@minLength(4)
@maxLength(63)
param workspaceName string

@description('Name of the Application Insights component.')
@minLength(1)
@maxLength(260)
param applicationInsightsName string

@description('Azure region for both resources.')
param location string = resourceGroup().location

@description('Tags applied to both resources.')
param tags object = {}

@description('Days the workspace keeps logs and metrics (30-730; the first 31 days carry no retention charge).')
@minValue(30)
@maxValue(730)
param retentionInDays int = 30

resource workspace 'Microsoft.OperationalInsights/workspaces@2023-09-01' = {
  name: workspaceName
  location: location
  tags: tags
  properties: {
    sku: {
      name: 'PerGB2018'
    }
    retentionInDays: retentionInDays
    features: {
      disableLocalAuth: true
    }
  }
}

resource applicationInsights 'Microsoft.Insights/components@2020-02-02' = {
  name: applicationInsightsName
  location: location
  tags: tags
  kind: 'web'
  properties: {
    Application_Type: 'web'
    WorkspaceResourceId: workspace.id
    IngestionMode: 'LogAnalytics'
    DisableLocalAuth: true
  }
}

output workspaceId string = workspace.id
output applicationInsightsId string = applicationInsights.id
output applicationInsightsName string = applicationInsights.name
// The connection string names the component and its ingestion endpoint; with local auth
// disabled it grants nothing by itself (every write needs an Entra token), so it is no secret.
output connectionString string = applicationInsights.properties.ConnectionString
