// Key Vault with Azure RBAC (no access policies) holding the app's three secrets. The app never gets their values as
// plain settings: its settings are Key Vault references, resolved with the app's identity (Key Vault Secrets User).
param name string
param location string
param tags object

@secure()
param hashKey string
@secure()
param ingestKey string
@secure()
param operatorKey string

resource vault 'Microsoft.KeyVault/vaults@2023-07-01' = {
  name: name
  location: location
  tags: tags
  properties: {
    tenantId: subscription().tenantId
    sku: { family: 'A', name: 'standard' }
    enableRbacAuthorization: true
    enableSoftDelete: true
    softDeleteRetentionInDays: 7
    publicNetworkAccess: 'Enabled'
  }
}

// Secret names allow only letters, digits and dashes, so HASH_KEY is kept as hash-key.
resource hashKeySecret 'Microsoft.KeyVault/vaults/secrets@2023-07-01' = {
  parent: vault
  name: 'hash-key'
  properties: { value: hashKey }
}

resource ingestKeySecret 'Microsoft.KeyVault/vaults/secrets@2023-07-01' = {
  parent: vault
  name: 'ingest-key'
  properties: { value: ingestKey }
}

resource operatorKeySecret 'Microsoft.KeyVault/vaults/secrets@2023-07-01' = {
  parent: vault
  name: 'operator-key'
  properties: { value: operatorKey }
}

output name string = vault.name
// Versionless URIs: a reference to one follows the newest version, which is how a key is rotated.
output hashKeySecretUri string = hashKeySecret.properties.secretUri
output ingestKeySecretUri string = ingestKeySecret.properties.secretUri
output operatorKeySecretUri string = operatorKeySecret.properties.secretUri
