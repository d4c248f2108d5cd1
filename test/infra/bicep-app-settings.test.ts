import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSettings, SECRET_SETTINGS, STRONG_KEY_CHARACTERS } from '../../host/settings';
import { CLIENT_ID, requiredInAzureShape, secretMinimum } from './azure-shape';
import { bicep, block, entries, modules, params, projectText, ROOT } from './bicep';
import { apiArgs, appSettings, deployedEnvironment } from './deployed';

const main = bicep('main.bicep');
const api = bicep('app/api.bicep');
const environment = deployedEnvironment();

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
    expect(
      [...appSettings.keys()].filter(
        (name) => /^AzureWebJobsStorage$|_KEY$|ConnectionString|AccountKey/i.test(name) && !SECRET_SETTINGS.includes(name as never),
      ),
    ).toEqual([]);
  });

  it("resolve every %SETTING% and connection the functions' triggers name", () => {
    const sources = readdirSync(join(ROOT, 'functions'))
      .filter((file) => file.endsWith('.ts'))
      .map((file) => projectText(join('functions', file)))
      .join('\n');
    const named = [...sources.matchAll(/'%(\w+)%'/g)].map((found) => found[1]!);
    expect(named.filter((name) => environment[name] === undefined)).toEqual([]);
    const connections = [...sources.matchAll(/connection:\s*'(\w+)'/g)].map((found) => found[1]!);
    expect(connections.filter((name) => environment[name] === undefined && environment[`${name}__queueServiceUri`] === undefined)).toEqual(
      [],
    );
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
    expect(apiArgs.get(`${name}SecretUri`)).toBe(`keyVault.outputs.${name}SecretUri`);
    const output = new RegExp(`^output\\s+${name}SecretUri\\s+string\\s*=\\s*(\\w+)\\.properties\\.secretUri$`, 'm').exec(keyVault);
    expect(output, `keyvault.bicep outputs ${name}SecretUri as a versionless secretUri`).not.toBeNull();
    // …from a secret whose value is a secure param, passed from a secure param of main.bicep…
    const secret = block(keyVault, new RegExp(`^resource\\s+${output![1]}\\s`, 'm'));
    expect(secret).toMatch(new RegExp(`value:\\s*${name}\\s*\\}`));
    expect(params(keyVault).get(name)?.decorators).toContain('@secure()');
    expect(
      modules(main)
        .find((module) => module.file === 'app/keyvault.bicep')
        ?.args.get(name),
    ).toBe(name);
    const declared = params(main).get(name);
    // The keys a guesser could try are refused in Azure below 32 random bytes; HASH_KEY only below the schema's minimum.
    const minimum = setting === 'HASH_KEY' ? secretMinimum() : STRONG_KEY_CHARACTERS;
    expect(declared?.decorators).toEqual(expect.arrayContaining(['@secure()', `@minLength(${minimum})`]));
    expect(declared?.fallback).toBeUndefined();
    // …that azd fills from an environment value docs/deploy.md tells the operator to set.
    const variableName = /^\$\{(\w+)\}$/.exec(parameterFile.parameters[name]?.value ?? '')?.[1];
    expect(variableName, `main.parameters.json maps ${name} to an azd environment value`).toBeDefined();
    expect(projectText('docs/deploy.md').includes(`azd env set ${variableName}`), `docs/deploy.md says azd env set ${variableName}`).toBe(
      true,
    );
  });

  it('puts no secret anywhere else: no listKeys, no account key, no connection string in infra', () => {
    const everything = ['main.bicep', ...modules(main).map((module) => module.file)].map((file) => bicep(file)).join('\n');
    expect(everything).not.toMatch(/listKeys\(|listConnectionStrings\(|AccountKey=|primaryMasterKey/);
    expect(block(bicep('app/storage.bicep'), /^resource\s+account\s/m)).toMatch(/allowSharedKeyAccess:\s*false/);
    expect(block(bicep('app/cosmos.bicep'), /^resource\s+account\s/m)).toMatch(/disableLocalAuth:\s*true/);
    expect(block(keyVault, /^resource\s+vault\s/m)).toMatch(/enableRbacAuthorization:\s*true/);
  });
});
