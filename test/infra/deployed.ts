import { expect } from 'vitest';
import { CLIENT_ID, RESOLVED_SECRET } from './azure-shape';
import { bicep, block, entries, literal, modules, outputs, params, variable } from './bicep';

const main = bicep('main.bicep');
const api = bicep('app/api.bicep');
const apiModule = modules(main).find((module) => module.file === 'app/api.bicep')!;

/** The Function App's app settings as api.bicep declares them: name → Bicep expression. */
export const appSettings = entries(block(api, /^var\s+appSettings\s*=\s*\{/m));

/** What main.bicep passes app/api.bicep, param by param. */
export const apiArgs = apiModule.args;

// What a module output is once deployed, for the outputs that feed the app settings.
const DEPLOYED: Record<string, string> = {
  'identity.outputs.clientId': CLIENT_ID,
  'storage.outputs.blobEndpoint': 'https://stexample.blob.core.windows.net/',
  'storage.outputs.queueEndpoint': 'https://stexample.queue.core.windows.net/',
  'cosmos.outputs.endpoint': 'https://cosmos-example.documents.azure.com:443/',
  'keyVault.outputs.hashKeySecretUri': 'https://kv-example.vault.azure.net/secrets/hash-key',
  'keyVault.outputs.ingestKeySecretUri': 'https://kv-example.vault.azure.net/secrets/ingest-key',
  'keyVault.outputs.operatorKeySecretUri': 'https://kv-example.vault.azure.net/secrets/operator-key',
  'email.outputs.endpoint': 'https://acs-example.europe.communication.azure.com',
  'email.outputs.sender': 'DoNotReply@00000000-0000-0000-0000-000000000000.azurecomm.net',
  'monitoring.outputs.connectionString': 'InstrumentationKey=00000000-0000-0000-0000-000000000000',
};

// A main.bicep expression's value: a literal, a var, a param (as chosen, else its default), or a module's output as deployed.
function mainValue(expression: string, chosen: Record<string, string>): string {
  const text = literal(expression);
  if (text !== undefined) return text;
  const output = /^(\w+)\.outputs\.(\w+)$/.exec(expression);
  if (output) {
    const module = modules(main).find((one) => one.symbol === output[1]);
    expect(module && outputs(bicep(module.file)).has(output[2]!), `${expression} is an output of its module`).toBe(true);
    if (!(expression in DEPLOYED)) throw new Error(`no deployed value for ${expression}: add one to test/infra/deployed.ts`);
    return DEPLOYED[expression]!;
  }
  const param = params(main).get(expression);
  if (param) {
    if (expression in chosen) return chosen[expression]!;
    return param.fallback === undefined ? RESOLVED_SECRET : mainValue(param.fallback, chosen);
  }
  return mainValue(variable(main, expression), chosen);
}

// An api.bicep param's value, through what main.bicep passes it.
function apiParam(name: string, chosen: Record<string, string>): string {
  const passed = apiArgs.get(name);
  if (passed === undefined) throw new Error(`main.bicep does not pass ${name} to app/api.bicep`);
  return mainValue(passed, chosen);
}

// An app setting's value as the app sees it once deployed.
function deployed(expression: string, chosen: Record<string, string>): string {
  const text = literal(expression);
  if (text !== undefined) return text;
  if (/^\w+$/.test(expression)) return apiParam(expression, chosen);
  const template = /^'(.*)'$/.exec(expression);
  if (!template) throw new Error(`cannot read the app setting value ${expression}`);
  const value = template[1]!.replace(/\$\{(\w+)\}/g, (_, name: string) => apiParam(name, chosen));
  // App Service resolves a Key Vault reference to the secret with the app's identity.
  return value.startsWith('@Microsoft.KeyVault(') ? RESOLVED_SECRET : value;
}

/**
 * The app's environment in Azure when main.bicep's params are given `chosen` values (by param name) and the rest are
 * left as they default: empty values left out, as api.bicep's settings resource leaves them out.
 */
export function deployedEnvironment(chosen: Record<string, string> = {}): Record<string, string> {
  return Object.fromEntries(
    [...appSettings].map(([name, expression]) => [name, deployed(expression, chosen)] as const).filter(([, value]) => value !== ''),
  );
}
