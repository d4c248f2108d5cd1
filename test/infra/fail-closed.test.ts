import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AZURE_SHAPE } from './azure-shape';

// Start-up as the Functions host does it in Azure: each function file registers itself, and the first builds the root
// from the environment (host/registry.ts). The worker's own module, `@azure/functions-core`, is stood in for, so the
// files take the Functions host's path; the platform sets WEBSITE_INSTANCE_ID on every instance.

const root = join(__dirname, '..', '..');
const functions = readdirSync(join(root, 'functions')).filter((file) => file.endsWith('.ts'));

function startInAzure(env: Record<string, string>) {
  const load = `
    const Module = require('node:module');
    let registered = 0;
    const core = {
      setProgrammingModel() {}, registerHook() { return { dispose() {} }; }, log() {},
      registerFunction() { registered += 1; return { dispose() {} }; },
    };
    const original = Module._load;
    Module._load = function (request, ...rest) { return request === '@azure/functions-core' ? core : original.call(this, request, ...rest); };
    ${functions.map((file) => `require(${JSON.stringify(join(root, 'functions', file))});`).join('\n')}
    console.log('registered', registered);`;
  const {
    FUNCTIONS_WORKER_RUNTIME: _runtime,
    WEBSITE_INSTANCE_ID: _instance,
    COSMOS_ENDPOINT: _endpoint,
    COSMOS_KEY: _key,
    ...outside
  } = process.env;
  return spawnSync(process.execPath, ['--import', 'tsx', '-e', load], { cwd: root, encoding: 'utf8', env: { ...outside, ...env } });
}

const WITHOUT_COSMOS = Object.fromEntries(
  Object.entries(AZURE_SHAPE).filter(([name]) => name !== 'COSMOS_ENDPOINT' && name !== 'COSMOS_CLIENT_ID'),
);

describe('in Azure, start-up fails closed on where the records are kept', () => {
  it('registers every function with the Azure settings (Cosmos DB at COSMOS_ENDPOINT)', () => {
    const started = startInAzure({ ...AZURE_SHAPE, WEBSITE_INSTANCE_ID: 'a1b2c3d4e5f6' });
    expect(started.stderr).not.toMatch(/cannot start/);
    expect(started.stdout).toContain(`registered ${functions.length}`);
    expect(started.status).toBe(0);
  });

  it('stops without COSMOS_ENDPOINT, naming it, rather than count in memory', () => {
    const started = startInAzure({ ...WITHOUT_COSMOS, WEBSITE_INSTANCE_ID: 'a1b2c3d4e5f6' });
    expect(started.status).not.toBe(0);
    expect(started.stderr).toContain('headcount cannot start: settings are missing or malformed');
    expect(started.stderr).toContain('COSMOS_ENDPOINT: is required in Azure (WEBSITE_INSTANCE_ID is set)');
    expect(started.stdout).not.toContain('registered');
  });

  it('stops with an operator key weaker than 32 random bytes, naming it and the command that makes one', () => {
    const started = startInAzure({ ...AZURE_SHAPE, OPERATOR_KEY: 'test-operator-key-0123456789', WEBSITE_INSTANCE_ID: 'a1b2c3d4e5f6' });
    expect(started.status).not.toBe(0);
    expect(started.stderr).toContain('OPERATOR_KEY: is weaker than 32 random bytes, which Azure refuses');
    expect(started.stderr).toContain("require('crypto').randomBytes(32).toString('base64url')");
    expect(started.stdout).not.toContain('registered');
  });

  it('stops with STORE=memory, naming it', () => {
    const started = startInAzure({ ...WITHOUT_COSMOS, STORE: 'memory', WEBSITE_INSTANCE_ID: 'a1b2c3d4e5f6' });
    expect(started.status).not.toBe(0);
    expect(started.stderr).toContain('STORE: is memory, which is refused in Azure');
  });
});
