// The function app on the Flex Consumption plan (FC1, Linux, Node 22), running as the user-assigned identity.
param name string
param planName string
param location string
param tags object
param identityId string
param identityClientId string
param blobEndpoint string
param queueEndpoint string
param deploymentContainerName string
param cosmosEndpoint string
param cosmosDatabaseName string
param cosmosContainerName string
param hitsQueueName string
param hashKeySecretUri string
param ingestKeySecretUri string
param operatorKeySecretUri string
param appInsightsConnectionString string
param allowedOrigins string
param trustedProxyHops string
param selfNetworks string
param selfAgentTag string
param ignoredPaths string
param hitMaxAgeDays string
param timeZone string
param personHashCost string
param identityMode string
param subjectScanIntervalSeconds string
param subjectRefreshSeconds string
param funnelSteps string
param goals string
param sites string
param pulseGoal string
param replayMax string
param ingestWindowMs string
param ingestMessageMaxHits string
param foldSettleSeconds string
param adminSessionHours string
param appUrl string
param emailEndpoint string
param emailSender string
param instanceMemoryMB int
param maximumInstanceCount int

// Every setting the app reads (host/settings.ts), in its identity shape: endpoints and the identity's client
// id, no key anywhere, the secrets as Key Vault references. test/infra holds this block to the settings schema.
// Flex Consumption takes the runtime from functionAppConfig, so FUNCTIONS_WORKER_RUNTIME is not (and may not be) set.
var appSettings = {
  AzureWebJobsStorage__blobServiceUri: blobEndpoint
  AzureWebJobsStorage__queueServiceUri: queueEndpoint
  AzureWebJobsStorage__credential: 'managedidentity'
  AzureWebJobsStorage__clientId: identityClientId
  // Half the instance for V8's old space, so it collects before the instance runs out (docs/cost.md, memory).
  languageWorkers__node__arguments: '--max-old-space-size=${instanceMemoryMB / 2}'
  HITS_QUEUE: hitsQueueName
  // Cosmos DB by name: the app refuses to start in Azure with records in memory (STORE=memory) or without the endpoint.
  STORE: 'cosmos'
  COSMOS_ENDPOINT: cosmosEndpoint
  COSMOS_CLIENT_ID: identityClientId
  COSMOS_DATABASE: cosmosDatabaseName
  COSMOS_CONTAINER: cosmosContainerName
  HASH_KEY: '@Microsoft.KeyVault(SecretUri=${hashKeySecretUri})'
  INGEST_KEY: '@Microsoft.KeyVault(SecretUri=${ingestKeySecretUri})'
  OPERATOR_KEY: '@Microsoft.KeyVault(SecretUri=${operatorKeySecretUri})'
  ALLOWED_ORIGINS: allowedOrigins
  TRUSTED_PROXY_HOPS: trustedProxyHops
  SELF_NETWORKS: selfNetworks
  SELF_AGENT_TAG: selfAgentTag
  IGNORED_PATHS: ignoredPaths
  HIT_MAX_AGE_DAYS: hitMaxAgeDays
  TIME_ZONE: timeZone
  PERSON_HASH_COST: personHashCost
  IDENTITY_MODE: identityMode
  SUBJECT_SCAN_INTERVAL_SECONDS: subjectScanIntervalSeconds
  SUBJECT_REFRESH_SECONDS: subjectRefreshSeconds
  FUNNEL_STEPS: funnelSteps
  GOALS: goals
  SITES: sites
  PULSE_GOAL: pulseGoal
  REPLAY_MAX: replayMax
  INGEST_WINDOW_MS: ingestWindowMs
  INGEST_MESSAGE_MAX_HITS: ingestMessageMaxHits
  FOLD_SETTLE_SECONDS: foldSettleSeconds
  ADMIN_SESSION_HOURS: adminSessionHours
  APP_URL: appUrl
  EMAIL_ENDPOINT: emailEndpoint
  EMAIL_SENDER: emailSender
  // The local stack's stand-in for Communication Services, never used in Azure.
  EMAIL_OUTBOX: ''
  APPLICATIONINSIGHTS_CONNECTION_STRING: appInsightsConnectionString
  APPLICATIONINSIGHTS_AUTHENTICATION_STRING: 'ClientId=${identityClientId};Authorization=AAD'
}

resource plan 'Microsoft.Web/serverfarms@2024-04-01' = {
  name: planName
  location: location
  tags: tags
  kind: 'functionapp'
  sku: { name: 'FC1', tier: 'FlexConsumption' }
  properties: { reserved: true }
}

resource site 'Microsoft.Web/sites@2024-04-01' = {
  name: name
  location: location
  tags: union(tags, { 'azd-service-name': 'api' })
  kind: 'functionapp,linux'
  identity: {
    type: 'UserAssigned'
    userAssignedIdentities: { '${identityId}': {} }
  }
  properties: {
    serverFarmId: plan.id
    httpsOnly: true
    // Key Vault references resolve with the user-assigned identity; without this they would look for a system one.
    keyVaultReferenceIdentity: identityId
    // No platform CORS: the app answers CORS itself from ALLOWED_ORIGINS, and platform CORS would take that over.
    siteConfig: { minTlsVersion: '1.2' }
    functionAppConfig: {
      deployment: {
        storage: {
          type: 'blobContainer'
          value: '${blobEndpoint}${deploymentContainerName}'
          authentication: {
            type: 'UserAssignedIdentity'
            userAssignedIdentityResourceId: identityId
          }
        }
      }
      scaleAndConcurrency: {
        instanceMemoryMB: instanceMemoryMB
        maximumInstanceCount: maximumInstanceCount
        // A beacon waiting in group commit's window holds one of an instance's HTTP slots while it costs no CPU, and
        // the platform's default (lower on smaller instances) would cap how many share a message: one message's worth.
        triggers: { http: { perInstanceConcurrency: 100 } }
      }
      // Node 22: Flex Consumption's default, and a version the app is tested on (package.json engines: 20 and 22).
      runtime: { name: 'node', version: '22' }
    }
  }
}

// Empty values are left out, so an unset choice falls back to the app's default instead of being an empty setting.
resource settings 'Microsoft.Web/sites/config@2024-04-01' = {
  parent: site
  name: 'appsettings'
  properties: toObject(filter(items(appSettings), setting => !empty(setting.value)), setting => setting.key, setting => setting.value)
}

output name string = site.name
output uri string = 'https://${site.properties.defaultHostName}'
