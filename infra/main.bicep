// headcount on Azure: `azd up` deploys this. One resource group holding a Flex Consumption function app, its storage
// (the hits queue and the deployment package), Cosmos DB, Key Vault, monitoring, and the one user-assigned identity
// they are all reached with. No keys anywhere: storage shared keys and Cosmos local auth are off.
targetScope = 'subscription'

@minLength(1)
@maxLength(64)
@description('Name of the azd environment; it seeds the token that makes every resource name unique.')
param environmentName string

@minLength(1)
@description('Region of every resource; it must offer the Flex Consumption plan.')
@metadata({ azd: { type: 'location' } })
param location string

@description('Resource group name; empty for rg-<environmentName>.')
param resourceGroupName string = ''

// The three secrets go to Key Vault only; the app reads them through Key Vault references.
@secure()
@minLength(16)
@description('HASH_KEY: the key of every hash. Rotating it starts the count again (every person hash changes).')
param hashKey string

@secure()
@minLength(43)
@description('INGEST_KEY: what the site\'s server sends in x-ingest-key to POST /api/hits.')
param ingestKey string

@secure()
@minLength(43)
@description('OPERATOR_KEY: the Admin key.')
param operatorKey string

// The operator's choices. Empty leaves the app's own default (host/settings.ts), so there is one default.
@description('ALLOWED_ORIGINS: comma-separated origins that may send beacons and read the pulse from a browser.')
param allowedOrigins string = ''
@description('TRUSTED_PROXY_HOPS: proxies (Front Door, a CDN) in front of the function app.')
param trustedProxyHops string = ''
@description('SELF_NETWORKS: comma-separated CIDRs whose requests are the site\'s own reads.')
param selfNetworks string = ''
@description('SELF_AGENT_TAG: a text in the user agent that marks the site\'s own tools.')
param selfAgentTag string = ''
@description('IGNORED_PATHS: comma-separated path prefixes never counted.')
param ignoredPaths string = ''
@description('HIT_MAX_AGE_DAYS: a hit older than this many days is refused (at most 7: each day\'s secret is deleted past it).')
param hitMaxAgeDays string = ''
@description('TIME_ZONE: the IANA time zone of every site\'s days (UTC by default); SITES may give a site its own.')
param timeZone string = ''
@description('PERSON_HASH_COST: log2 of scrypt\'s N for the person id; at least 12 in Azure.')
param personHashCost string = ''
@allowed(['', 'hash', 'cookie'])
@description('IDENTITY_MODE: who a visitor is, hash (the person hash, no cookie) or cookie (a first-party visitor_id cookie, for a site with consent).')
param identityMode string = ''
@description('SUBJECT_SCAN_INTERVAL_SECONDS: one visitor\'s scans of one subject are counted at most once per this many seconds (0: no limit).')
param subjectScanIntervalSeconds string = ''
@description('SUBJECT_REFRESH_SECONDS: a scan this soon after the visitor\'s previous scan of the subject is a reload, the same scan.')
param subjectRefreshSeconds string = ''
@description('FUNNEL_STEPS: the period report\'s path through, steps split by |, each name=/path,/path.')
param funnelSteps string = ''
@description('GOALS: the goals, split by |, each name=event:signup or name=path:/pricing,/pricing/.')
param goals string = ''
@description('SITES: the sites counted, split by |, each name=origin,origin;zone=Area/City (instead of ALLOWED_ORIGINS), and *;zone=Area/City for all sites together.')
param sites string = ''
@description('PULSE_GOAL: the goal whose people all time the pulse carries.')
param pulseGoal string = ''
@description('REPLAY_MAX: a poisoned message is put back on its queue (hits or imports) at most this many times (0: never).')
param replayMax string = ''
@description('INGEST_WINDOW_MS: milliseconds the first request of a batch waits for others to share its queue message (0: each request alone).')
param ingestWindowMs string = ''
@description('INGEST_MESSAGE_MAX_HITS: the most hits one queue message carries.')
param ingestMessageMaxHits string = ''

@description('FOLD_SETTLE_SECONDS: how many seconds behind the store\'s clock the recount timer folds, so a write in flight is not skipped.')
param foldSettleSeconds string = ''
@description('ADMIN_SESSION_HOURS: how long an Admin session lasts unused, in hours; it is renewed while used.')
param adminSessionHours string = ''
@description('APP_URL: the address links in mail start with, such as a custom domain; the app\'s own host name by default.')
param appUrl string = ''

@minValue(0)
@description('RU/s provisioned on the activity container; 0 makes the Cosmos DB account serverless (billed per request).')
param cosmosThroughput int = 0

@allowed([512, 2048, 4096])
@description('Memory of each Flex Consumption instance, in MB.')
param instanceMemoryMB int = 512

@description('Where Communication Services keeps the mail it sends (its data location, chosen once).')
param emailDataLocation string = 'Europe'

@minValue(40)
@maxValue(1000)
@description('Most instances the app scales out to; a cap on what a burst can spend on Cosmos DB.')
param maximumInstanceCount int = 40

var abbrs = loadJsonContent('abbreviations.json')
var resourceToken = toLower(uniqueString(subscription().id, environmentName, location))
var tags = { 'azd-env-name': environmentName }

// The names the code defaults to (host/settings.ts); test/infra holds these to the schema.
var hitsQueueName = 'hits'
var cosmosDatabaseName = 'headcount'
var cosmosContainerName = 'activity'

var functionAppName = '${abbrs.webSitesFunctions}api-${resourceToken}'
var deploymentContainerName = 'app-package-${take(functionAppName, 32)}-${take(resourceToken, 7)}'

resource rg 'Microsoft.Resources/resourceGroups@2024-03-01' = {
  name: !empty(resourceGroupName) ? resourceGroupName : '${abbrs.resourcesResourceGroups}${environmentName}'
  location: location
  tags: tags
}

module identity 'app/identity.bicep' = {
  name: 'identity'
  scope: rg
  params: {
    name: '${abbrs.managedIdentityUserAssignedIdentities}api-${resourceToken}'
    location: location
    tags: tags
  }
}

module storage 'app/storage.bicep' = {
  name: 'storage'
  scope: rg
  params: {
    name: '${abbrs.storageStorageAccounts}${resourceToken}'
    location: location
    tags: tags
    deploymentContainerName: deploymentContainerName
    // The Functions host moves a message that keeps failing to <queue>-poison; both exist before the first hit. Imported
    // hits travel on a queue of their own, <hits>-imports (shared/ingest/import/queue-name.ts), kept by keep-imports.
    queueNames: [hitsQueueName, '${hitsQueueName}-poison', '${hitsQueueName}-imports', '${hitsQueueName}-imports-poison']
  }
}

module cosmos 'app/cosmos.bicep' = {
  name: 'cosmos'
  scope: rg
  params: {
    name: '${abbrs.documentDBDatabaseAccounts}${resourceToken}'
    location: location
    tags: tags
    databaseName: cosmosDatabaseName
    containerName: cosmosContainerName
    throughput: cosmosThroughput
  }
}

module monitoring 'app/monitoring.bicep' = {
  name: 'monitoring'
  scope: rg
  params: {
    logAnalyticsName: '${abbrs.operationalInsightsWorkspaces}${resourceToken}'
    appInsightsName: '${abbrs.insightsComponents}${resourceToken}'
    location: location
    tags: tags
  }
}

module keyVault 'app/keyvault.bicep' = {
  name: 'keyvault'
  scope: rg
  params: {
    name: '${abbrs.keyVaultVaults}${resourceToken}'
    location: location
    tags: tags
    hashKey: hashKey
    ingestKey: ingestKey
    operatorKey: operatorKey
  }
}

module rbac 'app/rbac.bicep' = {
  name: 'rbac'
  scope: rg
  params: {
    principalId: identity.outputs.principalId
    storageAccountName: storage.outputs.name
    cosmosAccountName: cosmos.outputs.name
    keyVaultName: keyVault.outputs.name
    appInsightsName: monitoring.outputs.appInsightsName
    communicationName: email.outputs.name
  }
}

module email 'app/email.bicep' = {
  name: 'email'
  scope: rg
  params: {
    name: '${abbrs.communicationCommunicationServices}${resourceToken}'
    emailServiceName: '${abbrs.communicationEmailServices}${resourceToken}'
    dataLocation: emailDataLocation
    tags: tags
  }
}

module api 'app/api.bicep' = {
  name: 'api'
  scope: rg
  // The roles first: the host reads its storage and the Key Vault references with them as it starts.
  dependsOn: [rbac]
  params: {
    name: functionAppName
    planName: '${abbrs.webServerFarms}${resourceToken}'
    location: location
    tags: tags
    identityId: identity.outputs.id
    identityClientId: identity.outputs.clientId
    blobEndpoint: storage.outputs.blobEndpoint
    queueEndpoint: storage.outputs.queueEndpoint
    deploymentContainerName: deploymentContainerName
    cosmosEndpoint: cosmos.outputs.endpoint
    cosmosDatabaseName: cosmosDatabaseName
    cosmosContainerName: cosmosContainerName
    hitsQueueName: hitsQueueName
    hashKeySecretUri: keyVault.outputs.hashKeySecretUri
    ingestKeySecretUri: keyVault.outputs.ingestKeySecretUri
    operatorKeySecretUri: keyVault.outputs.operatorKeySecretUri
    appInsightsConnectionString: monitoring.outputs.connectionString
    allowedOrigins: allowedOrigins
    trustedProxyHops: trustedProxyHops
    selfNetworks: selfNetworks
    selfAgentTag: selfAgentTag
    ignoredPaths: ignoredPaths
    hitMaxAgeDays: hitMaxAgeDays
    timeZone: timeZone
    personHashCost: personHashCost
    identityMode: identityMode
    subjectScanIntervalSeconds: subjectScanIntervalSeconds
    subjectRefreshSeconds: subjectRefreshSeconds
    funnelSteps: funnelSteps
    goals: goals
    sites: sites
    pulseGoal: pulseGoal
    replayMax: replayMax
    ingestWindowMs: ingestWindowMs
    ingestMessageMaxHits: ingestMessageMaxHits
    foldSettleSeconds: foldSettleSeconds
    adminSessionHours: adminSessionHours
    appUrl: appUrl
    emailEndpoint: email.outputs.endpoint
    emailSender: email.outputs.sender
    instanceMemoryMB: instanceMemoryMB
    maximumInstanceCount: maximumInstanceCount
  }
}

output AZURE_LOCATION string = location
output AZURE_TENANT_ID string = tenant().tenantId
output AZURE_RESOURCE_GROUP string = rg.name
output AZURE_FUNCTION_APP_NAME string = api.outputs.name
output SERVICE_API_NAME string = api.outputs.name
output SERVICE_API_URI string = api.outputs.uri
output AZURE_KEY_VAULT_NAME string = keyVault.outputs.name
output AZURE_COSMOS_ENDPOINT string = cosmos.outputs.endpoint
output AZURE_STORAGE_ACCOUNT_NAME string = storage.outputs.name
