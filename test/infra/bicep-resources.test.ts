import { DAY_FILES_CONTAINER } from '../../adapters/day-files/blob-day-files';
import type { Container } from '@azure/cosmos';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMPOSITE_INDEXES, ensureContainer, EXCLUDED_PATHS } from '../../adapters/cosmos/client';
import { schemaDefaults } from './azure-shape';
import { bicep, block, entries, literal, modules, params, projectText, variable } from './bicep';
import { importQueueName } from '../../shared/ingest/import/queue-name';

const main = bicep('main.bicep');
const used = (file: string) => modules(main).find((module) => module.file === file)!;
const defaults = schemaDefaults();

// What the Cosmos adapter asks for when it creates the container itself (the local stack), caught without a server.
async function containerTheCodeCreates(): Promise<{
  database: unknown;
  container: {
    partitionKey?: { paths?: string[] };
    defaultTtl?: number;
    indexingPolicy?: { compositeIndexes?: unknown; excludedPaths?: Array<{ path: string }> };
  };
}> {
  const made: unknown[] = [];
  const fake = {
    id: defaults.COSMOS_CONTAINER,
    database: {
      id: defaults.COSMOS_DATABASE,
      client: {
        databases: {
          createIfNotExists: async (definition: unknown) => {
            made.push(definition);
            return { database: { containers: { createIfNotExists: async (inner: unknown) => made.push(inner) } } };
          },
        },
      },
    },
  };
  await ensureContainer(fake as unknown as Container);
  return { database: made[0], container: made[1] as never };
}

describe('the queues are the ones the code reads', () => {
  it('creates hits and hits-poison, and the imports queue and its poison, named from the queue the schema defaults to', () => {
    expect(literal(variable(main, 'hitsQueueName'))).toBe(defaults.HITS_QUEUE);
    expect(used('app/storage.bicep').args.get('queueNames')).toBe(
      "[hitsQueueName, '${hitsQueueName}-poison', '${hitsQueueName}-imports', '${hitsQueueName}-imports-poison']",
    );
    expect(importQueueName('hits')).toBe('hits-imports');
    expect(bicep('app/storage.bicep')).toMatch(
      /resource\s+queues\s+'Microsoft\.Storage\/storageAccounts\/queueServices\/queues@[\d-]+'\s*=\s*\[for\s+(\w+)\s+in\s+queueNames:\s*\{[^}]*name:\s*\1\s*\}/,
    );
    expect(defaults.HITS_QUEUE).toBe('hits');
    expect(used('app/api.bicep').args.get('hitsQueueName')).toBe('hitsQueueName');
  });

  it('keeps the storage account keyless, and gives Flex Consumption its deployment container', () => {
    const storage = bicep('app/storage.bicep');
    expect(block(storage, /^resource\s+account\s/m)).toMatch(/allowSharedKeyAccess:\s*false/);
    expect(block(storage, /^resource\s+deploymentContainer\s/m)).toMatch(/name:\s*deploymentContainerName/);
    // The day files' container, as adapters/day-files names it.
    expect(block(storage, /^resource\s+dayFilesContainer\s/m)).toMatch(new RegExp(`name:\\s*'${DAY_FILES_CONTAINER}'`));
    expect(storage).toMatch(/^output\s+queueEndpoint\s+string\s*=\s*account\.properties\.primaryEndpoints\.queue$/m);
    expect(storage).toMatch(/^output\s+blobEndpoint\s+string\s*=\s*account\.properties\.primaryEndpoints\.blob$/m);
  });
});

describe('Cosmos DB holds the container the code expects', () => {
  const cosmos = bicep('app/cosmos.bicep');
  const container = entries(block(block(cosmos, /^resource\s+container\s/m), /resource:\s*\{/));

  it('names the database and the container as the schema defaults do', () => {
    expect(literal(variable(main, 'cosmosDatabaseName'))).toBe(defaults.COSMOS_DATABASE);
    expect(literal(variable(main, 'cosmosContainerName'))).toBe(defaults.COSMOS_CONTAINER);
    expect([defaults.COSMOS_DATABASE, defaults.COSMOS_CONTAINER]).toEqual(['headcount', 'activity']);
  });

  it('partitions on the path the adapter creates locally, with TTL on and no default expiry', async () => {
    const code = await containerTheCodeCreates();
    const paths = /paths:\s*\[\s*'([^']+)'\s*\]/.exec(container.get('partitionKey') ?? '')?.[1];
    expect(paths).toBe(code.container.partitionKey?.paths?.[0]);
    expect(paths).toBe('/pk');
    expect(Number(container.get('defaultTtl'))).toBe(code.container.defaultTtl);
    expect(Number(container.get('defaultTtl'))).toBe(-1);
  });

  it('has the composite indexes the paged queries order by, the same as the container the code creates', async () => {
    const code = await containerTheCodeCreates();
    const inBicep = [
      ...(container.get('indexingPolicy') ?? '').matchAll(
        /\[\{ path: '([^']+)', order: '(\w+)' \}, \{ path: '([^']+)', order: '(\w+)' \}\]/g,
      ),
    ].map((found) => [
      { path: found[1], order: found[2] },
      { path: found[3], order: found[4] },
    ]);
    expect(inBicep).toEqual(code.container.indexingPolicy?.compositeIndexes);
    expect(inBicep).toEqual(COMPOSITE_INDEXES);
  });

  it('leaves the sketches and packed facts out of the index, as the container the code creates, and no query filters by them', async () => {
    const code = await containerTheCodeCreates();
    const excluded = /excludedPaths:\s*\[([^\]]*)\]/.exec(container.get('indexingPolicy') ?? '')?.[1] ?? '';
    const inBicep = [...excluded.matchAll(/\{ path: '([^']+)' \}/g)].map((found) => found[1]);
    expect(inBicep).toEqual(code.container.indexingPolicy?.excludedPaths?.map((excluded) => excluded.path));
    expect(inBicep).toEqual([...EXCLUDED_PATHS]);
    const adapters = join(__dirname, '..', '..', 'adapters', 'cosmos');
    const conditions = readdirSync(adapters)
      .filter((file) => file.endsWith('.ts'))
      .flatMap((file) =>
        [...readFileSync(join(adapters, file), 'utf8').matchAll(/\b(?:WHERE|ORDER BY)\b[^`"]*/g)].map((found) => found[0]),
      );
    expect(conditions.length).toBeGreaterThan(5);
    for (const path of EXCLUDED_PATHS.slice(1)) {
      const field = path.split('/')[1]!;
      for (const condition of conditions) expect(condition, field).not.toContain(`c.${field}`);
    }
  });

  it('is serverless unless throughput is given, and takes no key', () => {
    expect(params(main).get('cosmosThroughput')?.fallback).toBe('0');
    expect(used('app/cosmos.bicep').args.get('throughput')).toBe('cosmosThroughput');
    expect(cosmos).toMatch(/^var\s+serverless\s*=\s*throughput\s*==\s*0$/m);
    expect(cosmos).toMatch(/capabilities:\s*serverless\s*\?\s*\[\{\s*name:\s*'EnableServerless'\s*\}\]\s*:\s*\[\]/);
    expect(block(cosmos, /^resource\s+container\s/m)).toMatch(/options:\s*serverless\s*\?\s*\{\}\s*:\s*\{\s*throughput:\s*throughput\s*\}/);
    expect(block(cosmos, /^resource\s+account\s/m)).toMatch(/disableLocalAuth:\s*true/);
  });
});

describe('the identity holds only the roles it needs, each on its one resource', () => {
  const rbac = bicep('app/rbac.bicep');
  const roleIds = entries(block(rbac, /^var\s+roles\s*=\s*\{/m));
  const assignments = [...rbac.matchAll(/^resource\s+(\w+)\s+'Microsoft\.Authorization\/roleAssignments@[\d-]+'\s*=\s*\{/gm)].map((found) =>
    entries(block(rbac, new RegExp(`^resource\\s+${found[1]}\\s`, 'm'))),
  );

  it('grants blob and queue data, secret reading, metrics publishing and sending mail, and nothing else', () => {
    expect(Object.fromEntries([...roleIds].map(([name, id]) => [name, literal(id)]))).toEqual({
      storageBlobDataOwner: 'b7e6dc6d-f1e8-4753-8033-0f276bb0955b',
      storageQueueDataContributor: '974c5e8b-45b9-4653-ba55-5f855dd0fb88',
      keyVaultSecretsUser: '4633458b-17de-408a-b874-0445c86b69e6',
      monitoringMetricsPublisher: '3913510d-42f4-4d42-a2a3-e74fa7a4d2ef',
    });
    const granted = assignments.map((assignment) => [
      assignment.get('scope'),
      /roles\.(\w+)\)|roleDefinitionId:\s*(emailSender)\.id/
        .exec(assignment.get('properties') ?? '')
        ?.slice(1)
        .find(Boolean),
    ]);
    expect(granted).toEqual([
      ['storage', 'storageBlobDataOwner'],
      ['storage', 'storageQueueDataContributor'],
      ['vault', 'keyVaultSecretsUser'],
      ['appInsights', 'monitoringMetricsPublisher'],
      ['communication', 'emailSender'],
    ]);
    // The one custom role holds only what sending mail asks, assignable in this resource group alone.
    const sender = block(rbac, /^resource\s+emailSender\s/m);
    expect([...sender.matchAll(/'(Microsoft\.Communication\/[^']+)'/g)].map((found) => found[1])).toEqual([
      'Microsoft.Communication/CommunicationServices/Read',
      'Microsoft.Communication/CommunicationServices/Write',
      'Microsoft.Communication/EmailServices/write',
    ]);
    expect(sender).toMatch(/assignableScopes:\s*\[resourceGroup\(\)\.id\]/);
    for (const assignment of assignments)
      expect(assignment.get('properties')).toMatch(/principalId:\s*principalId\n[\s\S]*principalType:\s*'ServicePrincipal'/);
  });

  it('gives Cosmos DB data access through the data-plane Built-in Data Contributor role, scoped to the account', () => {
    expect(literal(variable(rbac, 'cosmosDataContributor'))).toBe('00000000-0000-0000-0000-000000000002');
    const assignment = entries(block(rbac, /^resource\s+\w+\s+'Microsoft\.DocumentDB\/databaseAccounts\/sqlRoleAssignments@[\d-]+'/m));
    expect(assignment.get('parent')).toBe('cosmos');
    expect(assignment.get('properties')).toMatch(/roleDefinitionId:\s*'\$\{cosmos\.id\}\/sqlRoleDefinitions\/\$\{cosmosDataContributor\}'/);
    expect(assignment.get('properties')).toMatch(/scope:\s*cosmos\.id/);
  });

  it('grants to the app identity, and no other file grants anything', () => {
    expect(used('app/rbac.bicep').args.get('principalId')).toBe('identity.outputs.principalId');
    const others = [
      'main.bicep',
      ...modules(main)
        .map((module) => module.file)
        .filter((file) => file !== 'app/rbac.bicep'),
    ];
    expect(others.filter((file) => /roleAssignments@|sqlRoleAssignments@/.test(bicep(file)))).toEqual([]);
  });
});

describe('the function app runs on Flex Consumption as the identity', () => {
  const api = bicep('app/api.bicep');
  const site = block(api, /^resource\s+site\s/m);

  it('is an FC1 plan running Node 22, a major package.json supports (its engines name 20 and 22)', () => {
    expect(block(api, /^resource\s+plan\s/m)).toMatch(/sku:\s*\{\s*name:\s*'FC1',\s*tier:\s*'FlexConsumption'\s*\}/);
    const runtime = /runtime:\s*\{\s*name:\s*'(\w+)',\s*version:\s*'(\d+)'\s*\}/.exec(site);
    expect(runtime?.slice(1)).toEqual(['node', '22']);
    // engines is one range per supported major: ^20.19.0 || ^22.13.0.
    const engines = JSON.parse(projectText('package.json')).engines.node as string;
    const majors = engines.split('||').map((range) => /^\s*\^(\d+)\.\d+\.\d+\s*$/.exec(range)?.[1]);
    expect(majors).toEqual(['20', '22']);
    expect(majors).toContain(runtime?.[2]);
  });

  it('deploys from blob storage and resolves Key Vault references with the user-assigned identity', () => {
    expect(site).toMatch(/type:\s*'UserAssigned'/);
    expect(site).toMatch(/keyVaultReferenceIdentity:\s*identityId/);
    expect(site).toMatch(/authentication:\s*\{\s*type:\s*'UserAssignedIdentity'\s*userAssignedIdentityResourceId:\s*identityId\s*\}/);
    expect(used('app/api.bicep').args.get('identityId')).toBe('identity.outputs.id');
    expect(block(main, /^module\s+api\s/m)).toMatch(/dependsOn:\s*\[rbac\]/);
  });

  it('sets none of the settings Flex Consumption refuses (the runtime comes from functionAppConfig)', () => {
    const names = [...entries(block(api, /^var\s+appSettings\s*=\s*\{/m)).keys()];
    expect(
      names.filter((name) =>
        /^(FUNCTIONS_WORKER_RUNTIME|FUNCTIONS_EXTENSION_VERSION|WEBSITE_RUN_FROM_PACKAGE|WEBSITE_NODE_DEFAULT_VERSION)$/.test(name),
      ),
    ).toEqual([]);
  });
});

describe('azd can run it', () => {
  it('azure.yaml has one function service in TypeScript whose name tags the function app', () => {
    const yaml = projectText('azure.yaml');
    const service = /^services:\n {2}(\w+):\n((?: {4}.*\n|\s*#.*\n)+)/m.exec(yaml);
    expect(service?.[1]).toBe('api');
    expect(service?.[2]).toMatch(/^ {4}project: \.$/m);
    expect(service?.[2]).toMatch(/^ {4}language: ts$/m);
    expect(service?.[2]).toMatch(/^ {4}host: function$/m);
    expect(service?.[2]).toMatch(/^ {4}dist: dist\/package$/m);
    expect(bicep('app/api.bicep')).toMatch(new RegExp(`'azd-service-name':\\s*'${service?.[1]}'`));
  });

  it('main.bicep passes each module exactly the params it declares', () => {
    for (const module of modules(main)) {
      const declared = params(bicep(module.file));
      const required = [...declared].filter(([, param]) => param.fallback === undefined).map(([name]) => name);
      expect(
        [...module.args.keys()].filter((name) => !declared.has(name)),
        `${module.file} declares every param passed`,
      ).toEqual([]);
      expect(
        required.filter((name) => !module.args.has(name)),
        `${module.file} gets every required param`,
      ).toEqual([]);
    }
  });

  it('main.parameters.json fills every param main.bicep needs from the azd environment, and no other', () => {
    const file = JSON.parse(projectText('infra/main.parameters.json')) as { parameters: Record<string, { value: string }> };
    const declared = params(main);
    expect(Object.keys(file.parameters).filter((name) => !declared.has(name))).toEqual([]);
    expect(
      [...declared].filter(([name, param]) => param.fallback === undefined && !(name in file.parameters)).map(([name]) => name),
    ).toEqual([]);
    for (const { value } of Object.values(file.parameters)) expect(value).toMatch(/^\$\{[A-Z_]+(=[^}]*)?\}$/);
    // The operator's choices are documented where they are set: the Deploy to Azure section of docs/deploy.md.
    const choices = Object.values(file.parameters)
      .map(({ value }) => /^\$\{(HEADCOUNT_\w+)/.exec(value)?.[1])
      .filter((name) => name !== undefined);
    const deploy = projectText('docs/deploy.md');
    expect(choices.length).toBeGreaterThan(5);
    expect(choices.filter((name) => !deploy.includes(`\`${name}\``))).toEqual([]);
  });

  it('names resources from the abbreviations table and one resource token', () => {
    const table = JSON.parse(projectText('infra/abbreviations.json')) as Record<string, string>;
    const abbreviations = [...main.matchAll(/abbrs\.(\w+)/g)].map((found) => found[1]!);
    expect(abbreviations.length).toBeGreaterThan(5);
    expect(abbreviations.filter((name) => !(name in table))).toEqual([]);
    expect(variable(main, 'resourceToken')).toBe('toLower(uniqueString(subscription().id, environmentName, location))');
  });
});
