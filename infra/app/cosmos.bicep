// Cosmos DB for NoSQL: serverless unless throughput is given. Local (key) auth is off, so the only way in is Entra ID
// with the data role granted in rbac.bicep; the database and container are made here because that role cannot.
param name string
param location string
param tags object
param databaseName string
param containerName string

@description('RU/s on the container; 0 for a serverless account.')
param throughput int

var serverless = throughput == 0

resource account 'Microsoft.DocumentDB/databaseAccounts@2024-11-15' = {
  name: name
  location: location
  tags: tags
  kind: 'GlobalDocumentDB'
  properties: {
    databaseAccountOfferType: 'Standard'
    consistencyPolicy: { defaultConsistencyLevel: 'Session' }
    locations: [
      { locationName: location, failoverPriority: 0, isZoneRedundant: false }
    ]
    capabilities: serverless ? [{ name: 'EnableServerless' }] : []
    disableLocalAuth: true
    disableKeyBasedMetadataWriteAccess: true
    minimalTlsVersion: 'Tls12'
    publicNetworkAccess: 'Enabled'
  }
}

resource database 'Microsoft.DocumentDB/databaseAccounts/sqlDatabases@2024-11-15' = {
  parent: account
  name: databaseName
  properties: {
    resource: { id: databaseName }
  }
}

// One container for everything (DESIGN.md): visitor records and summaries under pk "visitors", activity under pk
// <day>. defaultTtl -1 turns TTL on with no default expiry, so only a document's own ttl (a scanner's 90 days) expires it.
resource container 'Microsoft.DocumentDB/databaseAccounts/sqlDatabases/containers@2024-11-15' = {
  parent: database
  name: containerName
  properties: {
    resource: {
      id: containerName
      partitionKey: { paths: ['/pk'], kind: 'Hash', version: 2 }
      defaultTtl: -1
      // The orders the paged queries read in (adapters/cosmos/client.ts COMPOSITE_INDEXES): a day's visitor-days by
      // daily token, to build its rollup, and first seen first, for the day's table.
      indexingPolicy: {
        indexingMode: 'consistent'
        automatic: true
        includedPaths: [{ path: '/*' }]
        excludedPaths: [
          { path: '/"_etag"/?' }
          { path: '/packed/?' }
          { path: '/people_sketch/*' }
          { path: '/new_sketch/*' }
          { path: '/returning_sketch/*' }
          { path: '/first_days/*' }
        ]
        compositeIndexes: [
          [{ path: '/token', order: 'ascending' }, { path: '/id', order: 'ascending' }]
          [{ path: '/first_seen', order: 'ascending' }, { path: '/id', order: 'ascending' }]
        ]
      }
    }
    options: serverless ? {} : { throughput: throughput }
  }
}

output name string = account.name
output endpoint string = account.properties.documentEndpoint
