// The one identity the function app is: the host's storage, the app's queue and Cosmos DB clients, and the Key Vault
// references all authenticate as it. Its roles are granted in rbac.bicep, and nowhere else.
param name string
param location string
param tags object

resource identity 'Microsoft.ManagedIdentity/userAssignedIdentities@2023-01-31' = {
  name: name
  location: location
  tags: tags
}

output id string = identity.id
output name string = identity.name
output clientId string = identity.properties.clientId
output principalId string = identity.properties.principalId
