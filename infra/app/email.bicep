// Mail for the reports and alerts: Azure Communication Services with an Email service and its Azure-managed domain
// (DoNotReply@<id>.azurecomm.net, low send quotas: docs/deploy.md), sent with the app's identity, never a key.
param name string
param emailServiceName string
param dataLocation string
param tags object

resource emailService 'Microsoft.Communication/emailServices@2023-04-01' = {
  name: emailServiceName
  location: 'global'
  tags: tags
  properties: { dataLocation: dataLocation }
}

resource domain 'Microsoft.Communication/emailServices/domains@2023-04-01' = {
  parent: emailService
  name: 'AzureManagedDomain'
  location: 'global'
  tags: tags
  // No open or click tracking: a recipient's reading is nobody's figure.
  properties: { domainManagement: 'AzureManaged', userEngagementTracking: 'Disabled' }
}

resource communication 'Microsoft.Communication/communicationServices@2023-04-01' = {
  name: name
  location: 'global'
  tags: tags
  properties: { dataLocation: dataLocation, linkedDomains: [domain.id] }
}

output name string = communication.name
output endpoint string = 'https://${communication.properties.hostName}'
output sender string = 'DoNotReply@${domain.properties.mailFromSenderDomain}'
