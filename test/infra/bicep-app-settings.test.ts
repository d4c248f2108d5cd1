import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSettings, SECRET_SETTINGS } from '../../shared/config/settings';
import { CLIENT_ID, RESOLVED_SECRET, requiredInAzureShape, secretMinimum } from './azure-shape';
import { bicep, block, entries, literal, modules, outputs, params, projectText, ROOT, variable } from './bicep';

const main = bicep('main.bicep');
const api = bicep('app/api.bicep');
const apiModule = modules(main).find((module) => module.file === 'app/api.bicep')!;
const appSettings = entries(block(api, /^var\s+appSettings\s*=\s*\{/m));

// What a module output is once deployed, for the outputs that feed the app settings.
const DEPLOYED: Record<string, string> = {
  'identity.outputs.clientId': CLIENT_ID,
  'storage.outputs.blobEndpoint': 'https://stexample.blob.core.windows.net/',
  'storage.outputs.queueEndpoint': 'https://stexample.queue.core.windows.net/',
  'cosmos.outputs.endpoint': 'https://cosmos-example.documents.azure.com:443/',
  'keyVault.outputs.hashKeySecretUri': 'https://kv-example.vault.azure.net/secrets/hash-key',
  'keyVault.outputs.ingestKeySecretUri': 'https://kv-example.vault.azure.net/secrets/ingest-key',
  'keyVault.outputs.operatorKeySecretUri': 'https://kv-example.vault.azure.net/secrets/operator-key',
  'monitoring.outputs.connectionString': 'InstrumentationKey=00000000-0000-0000-0000-000000000000',
};

// A main.bicep expression's value: a literal, a var, a param's default, or a module's output as deployed.
function mainValue(expression: string): string {
  const text = literal(expression);
  if (text !== undefined) return text;
  const output = /^(\w+)\.outputs\.(\w+)$/.exec(expression);
  if (output) {
    const module = modules(main).find((one) => one.symbol === output[1]);
    expect(module && outputs(bicep(module.file)).has(output[2]!), `${expression} is an output of its module`).toBe(true);
    if (!(expression in DEPLOYED)) throw new Error(`no deployed value for ${expression}: add one to this test`);
    return DEPLOYED[expression]!;
  }
  const param = params(main).get(expression);
  if (param) return param.fallback === undefined ? RESOLVED_SECRET : mainValue(param.fallback);
  return mainValue(variable(main, expression));
}

// An api.bicep param's value, through what main.bicep passes it.
function apiParam(name: string): string {
  const passed = apiModule.args.get(name);
  if (passed === undefined) throw new Error(`main.bicep does not pass ${name} to app/api.bicep`);
  return mainValue(passed);
}

// An app setting's value as the app sees it once deployed.
function deployed(expression: string): string {
  const text = literal(expression);
  if (text !== undefined) return text;
  if (/^\w+$/.test(expression)) return apiParam(expression);
  const template = /^'(.*)'$/.exec(expression);
  if (!template) throw new Error(`cannot read the app setting value ${expression}`);
  const value = template[1]!.replace(/\$\{(\w+)\}/g, (_, name: string) => apiParam(name));
  // App Service resolves a Key Vault reference to the secret with the app's identity.
  return value.startsWith('@Microsoft.KeyVault(') ? RESOLVED_SECRET : value;
}

// The app's environment in Azure: empty values left out, as api.bicep's settings resource leaves them out.
const environment = Object.fromEntries(
  [...appSettings].map(([name, expression]) => [name, deployed(expression)] as const).filter(([, value]) => value !== ''),
);

describe("the Function App's app settings hold to the settings schema", () => {
  it('are accepted by the schema as they are deployed', () => {
    const read = readSettings(environment);
    expect(read.ok ? [] : read.problems).toEqual([]);
  });

  it('set every setting the schema requires in the Azure shape', () => {
    const required = requiredInAzureShape();
    expect(required.length).toBeGreaterThan(5);
    expect(required.filter((name) => environment[name] === undefined)).toEqual([]);
  });

  it('use the one user-assigned identity for storage and Cosmos DB, with no key and no connection string', () => {
    expect(environment.AzureWebJobsStorage__clientId).toBe(CLIENT_ID);
    expect(environment.COSMOS_CLIENT_ID).toBe(CLIENT_ID);
    expect(environment.AzureWebJobsStorage__credential).toBe('managedidentity');
    expect([...appSettings.keys()].filter((name) => /^AzureWebJobsStorage$|_KEY$|ConnectionString|AccountKey/i.test(name) && !SECRET_SETTINGS.includes(name as never))).toEqual([]);
  });

  it("resolve every %SETTING% and connection the functions' triggers name", () => {
    const sources = readdirSync(join(ROOT, 'functions')).filter((file) => file.endsWith('.ts')).map((file) => projectText(join('functions', file))).join('\n');
    const named = [...sources.matchAll(/'%(\w+)%'/g)].map((found) => found[1]!);
    expect(named.filter((name) => environment[name] === undefined)).toEqual([]);
    const connections = [...sources.matchAll(/connection:\s*'(\w+)'/g)].map((found) => found[1]!);
    expect(connections.filter((name) => environment[name] === undefined && environment[`${name}__queueServiceUri`] === undefined)).toEqual([]);
  });

  it('leave empty choices out, so the app keeps its own defaults', () => {
    const resource = block(api, /^resource\s+settings\s+'Microsoft\.Web\/sites\/config@[\d-]+'\s*=\s*\{/m);
    expect(entries(resource).get('name')).toBe("'appsettings'");
    expect(entries(resource).get('properties')).toMatch(/filter\(items\(appSettings\),\s*(\w+)\s*=>\s*!empty\(\1\.value\)\)/);
  });

  it('send telemetry as the identity, since Application Insights has local auth off', () => {
    expect(appSettings.get('APPLICATIONINSIGHTS_AUTHENTICATION_STRING')).toBe("'ClientId=${identityClientId};Authorization=AAD'");
    expect(block(bicep('app/monitoring.bicep'), /^resource\s+appInsights\s/m)).toMatch(/DisableLocalAuth:\s*true/);
  });
});

describe('each secret reaches the app only as a Key Vault reference', () => {
  const camel = (setting: string) => setting.toLowerCase().replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
  const keyVault = bicep('app/keyvault.bicep');
  const parameterFile = JSON.parse(projectText('infra/main.parameters.json')) as { parameters: Record<string, { value: string }> };

  it.each([...SECRET_SETTINGS])('%s', (setting) => {
    const name = camel(setting);
    // The app setting is a reference to a versionless secret URI, which Key Vault output…
    expect(appSettings.get(setting)).toBe(`'@Microsoft.KeyVault(SecretUri=\${${name}SecretUri})'`);
    expect(apiModule.args.get(`${name}SecretUri`)).toBe(`keyVault.outputs.${name}SecretUri`);
    const output = new RegExp(`^output\\s+${name}SecretUri\\s+string\\s*=\\s*(\\w+)\\.properties\\.secretUri$`, 'm').exec(keyVault);
    expect(output, `keyvault.bicep outputs ${name}SecretUri as a versionless secretUri`).not.toBeNull();
    // …from a secret whose value is a secure param, passed from a secure param of main.bicep…
    const secret = block(keyVault, new RegExp(`^resource\\s+${output![1]}\\s`, 'm'));
    expect(secret).toMatch(new RegExp(`value:\\s*${name}\\s*\\}`));
    expect(params(keyVault).get(name)?.decorators).toContain('@secure()');
    expect(modules(main).find((module) => module.file === 'app/keyvault.bicep')?.args.get(name)).toBe(name);
    const declared = params(main).get(name);
    expect(declared?.decorators).toEqual(expect.arrayContaining(['@secure()', `@minLength(${secretMinimum()})`]));
    expect(declared?.fallback).toBeUndefined();
    // …that azd fills from an environment value the README tells the operator to set.
    const variableName = /^\$\{(\w+)\}$/.exec(parameterFile.parameters[name]?.value ?? '')?.[1];
    expect(variableName, `main.parameters.json maps ${name} to an azd environment value`).toBeDefined();
    expect(projectText('README.md').includes(`azd env set ${variableName}`), `README.md says azd env set ${variableName}`).toBe(true);
  });

  it('puts no secret anywhere else: no listKeys, no account key, no connection string in infra', () => {
    const everything = ['main.bicep', ...modules(main).map((module) => module.file)].map((file) => bicep(file)).join('\n');
    expect(everything).not.toMatch(/listKeys\(|listConnectionStrings\(|AccountKey=|primaryMasterKey/);
    expect(block(bicep('app/storage.bicep'), /^resource\s+account\s/m)).toMatch(/allowSharedKeyAccess:\s*false/);
    expect(block(bicep('app/cosmos.bicep'), /^resource\s+account\s/m)).toMatch(/disableLocalAuth:\s*true/);
    expect(block(keyVault, /^resource\s+vault\s/m)).toMatch(/enableRbacAuthorization:\s*true/);
  });
});
