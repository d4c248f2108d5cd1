import { ManagedIdentityCredential } from '@azure/identity';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { credentialFor, queueLocation } from '../../host/composition';
import { describeProblems, readSettings } from '../../host/settings';
import { AZURE_SHAPE, CLIENT_ID, requiredInAzureShape } from './azure-shape';
import { projectText } from './bicep';

const LOCAL_SHAPE: Record<string, string> = z
  .object({ Values: z.record(z.string(), z.string()) })
  .parse(JSON.parse(projectText('local.settings.example.json'))).Values;
const AZURITE = LOCAL_SHAPE.AzureWebJobsStorage!;

const without = (env: Record<string, string>, ...names: string[]) =>
  Object.fromEntries(Object.entries(env).filter(([name]) => !names.includes(name)));

// The settings a refused environment is refused for.
function refusedFor(env: Record<string, string | undefined>): string[] {
  const read = readSettings(env);
  if (read.ok) throw new Error('the settings were accepted');
  return read.problems.map((problem) => problem.setting);
}

describe('one settings schema for both shapes', () => {
  it('accepts the local shape: a connection string and a Cosmos key (local.settings.example.json)', () => {
    const read = readSettings(LOCAL_SHAPE);
    expect(read.ok && read.settings.AzureWebJobsStorage).toBe(AZURITE);
    expect(read.ok && read.settings.COSMOS_KEY).toBe(LOCAL_SHAPE.COSMOS_KEY);
  });

  it('accepts the Azure shape: endpoints and the identity, no key anywhere', () => {
    const read = readSettings(AZURE_SHAPE);
    expect(read.ok).toBe(true);
    expect(read.ok && [read.settings.AzureWebJobsStorage, read.settings.COSMOS_KEY]).toEqual([undefined, undefined]);
    expect(read.ok && read.settings.COSMOS_CLIENT_ID).toBe(CLIENT_ID);
  });

  it('requires, in the Azure shape, the endpoints, the managed identity credential and the three secrets', () => {
    expect(requiredInAzureShape()).toEqual(
      [
        'AzureWebJobsStorage__blobServiceUri',
        'AzureWebJobsStorage__credential',
        'AzureWebJobsStorage__queueServiceUri',
        'COSMOS_CLIENT_ID',
        'COSMOS_ENDPOINT',
        'HASH_KEY',
        'INGEST_KEY',
        'OPERATOR_KEY',
      ].sort(),
    );
  });

  it('keeps the system-assigned identity possible: credential managedidentity without a client id', () => {
    expect(readSettings(without(AZURE_SHAPE, 'AzureWebJobsStorage__clientId')).ok).toBe(true);
  });
});

describe('a mix that would silently use no credentials, or the wrong ones, is refused with the setting named', () => {
  const cases: [string, Record<string, string>, string][] = [
    ['a Cosmos endpoint with neither a key nor a client id', without(AZURE_SHAPE, 'COSMOS_CLIENT_ID'), 'COSMOS_ENDPOINT'],
    ['a Cosmos key beside the client id', { ...AZURE_SHAPE, COSMOS_KEY: 'a-key-0123456789' }, 'COSMOS_KEY'],
    ['a Cosmos client id without an endpoint', without(AZURE_SHAPE, 'COSMOS_ENDPOINT'), 'COSMOS_ENDPOINT'],
    ['a Cosmos client id with a plain-HTTP endpoint', { ...AZURE_SHAPE, COSMOS_ENDPOINT: 'http://127.0.0.1:8081' }, 'COSMOS_ENDPOINT'],
    ['a Cosmos client id that is not a GUID', { ...AZURE_SHAPE, COSMOS_CLIENT_ID: 'id-api-abc' }, 'COSMOS_CLIENT_ID'],
    [
      'a queue endpoint without credential: managedidentity',
      without(AZURE_SHAPE, 'AzureWebJobsStorage__credential'),
      'AzureWebJobsStorage__credential',
    ],
    [
      'a queue endpoint and client id without the credential',
      without(AZURE_SHAPE, 'AzureWebJobsStorage__credential', 'AzureWebJobsStorage__blobServiceUri'),
      'AzureWebJobsStorage__credential',
    ],
    [
      'a credential other than managedidentity',
      { ...AZURE_SHAPE, AzureWebJobsStorage__credential: 'default' },
      'AzureWebJobsStorage__credential',
    ],
    [
      'the identity settings without the blob endpoint the host needs',
      without(AZURE_SHAPE, 'AzureWebJobsStorage__blobServiceUri'),
      'AzureWebJobsStorage__blobServiceUri',
    ],
    [
      'a client id and credential without the queue endpoint',
      without(AZURE_SHAPE, 'AzureWebJobsStorage__queueServiceUri'),
      'AzureWebJobsStorage__queueServiceUri',
    ],
    [
      'a plain-HTTP queue endpoint',
      { ...AZURE_SHAPE, AzureWebJobsStorage__queueServiceUri: 'http://127.0.0.1:10001/devstoreaccount1' },
      'AzureWebJobsStorage__queueServiceUri',
    ],
    [
      'a storage client id that is not a GUID',
      { ...AZURE_SHAPE, AzureWebJobsStorage__clientId: 'id-api-abc' },
      'AzureWebJobsStorage__clientId',
    ],
    [
      'a connection string and a queue endpoint',
      { ...LOCAL_SHAPE, AzureWebJobsStorage__queueServiceUri: AZURE_SHAPE.AzureWebJobsStorage__queueServiceUri! },
      'AzureWebJobsStorage__queueServiceUri',
    ],
    ['a connection string and a client id', { ...LOCAL_SHAPE, AzureWebJobsStorage__clientId: CLIENT_ID }, 'AzureWebJobsStorage__clientId'],
    [
      'a connection string with no key, SAS or development shortcut',
      { ...LOCAL_SHAPE, AzureWebJobsStorage: 'DefaultEndpointsProtocol=https;AccountName=stexample;EndpointSuffix=core.windows.net' },
      'AzureWebJobsStorage',
    ],
    [
      'neither a connection string nor a queue endpoint',
      without(AZURE_SHAPE, ...Object.keys(AZURE_SHAPE).filter((name) => name.startsWith('AzureWebJobsStorage'))),
      'AzureWebJobsStorage',
    ],
  ];

  it.each(cases)('%s', (_, env, setting) => {
    expect(refusedFor(env)).toContain(setting);
    const read = readSettings(env);
    expect(!read.ok && describeProblems(read.problems)).toContain(`  ${setting}: `);
  });

  it("still accepts Azurite's development shortcut and a SAS connection string", () => {
    expect(readSettings({ ...LOCAL_SHAPE, AzureWebJobsStorage: 'UseDevelopmentStorage=true' }).ok).toBe(true);
    expect(
      readSettings({
        ...LOCAL_SHAPE,
        AzureWebJobsStorage: 'QueueEndpoint=https://stexample.queue.core.windows.net/;SharedAccessSignature=sv=2024&sig=abc',
      }).ok,
    ).toBe(true);
  });
});

describe('the code connects with the managed identity when given endpoints without keys', () => {
  it('reaches the queue at its endpoint as the user-assigned identity', () => {
    const read = readSettings(AZURE_SHAPE);
    if (!read.ok) throw new Error(describeProblems(read.problems));
    const location = queueLocation(read.settings);
    expect('serviceUri' in location && location.serviceUri).toBe(AZURE_SHAPE.AzureWebJobsStorage__queueServiceUri);
    expect('credential' in location && location.credential).toBeInstanceOf(ManagedIdentityCredential);
  });

  it('uses the connection string on the local stack', () => {
    const read = readSettings(LOCAL_SHAPE);
    if (!read.ok) throw new Error(describeProblems(read.problems));
    expect(queueLocation(read.settings)).toEqual({ connectionString: AZURITE });
  });

  it('never falls back to a default credential chain, with or without a client id', () => {
    expect(credentialFor(CLIENT_ID)).toBeInstanceOf(ManagedIdentityCredential);
    expect(credentialFor(undefined)).toBeInstanceOf(ManagedIdentityCredential);
  });
});
