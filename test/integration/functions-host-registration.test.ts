import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEnv } from '../support/env';

const run = promisify(execFile);
const root = join(__dirname, '..', '..');

/**
 * A stand-in for the module the Functions host's Node worker provides to the app, `@azure/functions-core`: it records
 * what `@azure/functions` registers, as the worker would hand it to the host, and prints it when the process ends.
 */
const fakeCore = `
const registered = [];
module.exports = {
  setProgrammingModel() {},
  registerHook() { return { dispose() {} }; },
  registerFunction(metadata) { registered.push(metadata); return { dispose() {} }; },
};
process.on('exit', () => process.stdout.write('REGISTERED ' + JSON.stringify(registered) + '\\n'));
`;

/** Loads every function file the way the worker loads \`main\`, in a process that has the worker's core module. */
async function loadInWorker(nodePath: string, env: Record<string, string | undefined>) {
  const files = readdirSync(join(root, 'functions')).filter((file) => file.endsWith('.ts'));
  const script = files.map((file) => `require(${JSON.stringify(join(root, 'functions', file))});`).join('\n');
  const clean = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined)) as Record<string, string>;
  return run(process.execPath, ['--import', 'tsx', '-e', script], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', NODE_PATH: nodePath, ...clean },
    timeout: 60_000,
  });
}

type Binding = {
  type: string;
  direction: string;
  route?: string;
  methods?: string[];
  authLevel?: string;
  queueName?: string;
  connection?: string;
  schedule?: string;
};

describe('inside the Functions host, every function registers through @azure/functions', () => {
  let modules: string;
  beforeAll(() => {
    modules = mkdtempSync(join(tmpdir(), 'headcount-core-'));
    mkdirSync(join(modules, '@azure', 'functions-core'), { recursive: true });
    writeFileSync(join(modules, '@azure', 'functions-core', 'index.js'), fakeCore);
  });
  afterAll(() => rmSync(modules, { recursive: true, force: true }));

  it('hands the host each function with the trigger the local host serves: routes under api/, the queue, the timer', async () => {
    const { stdout } = await loadInWorker(modules, testEnv());
    const line = stdout.split('\n').find((text) => text.startsWith('REGISTERED '));
    expect(line).toBeDefined();
    const registered = JSON.parse(line!.slice('REGISTERED '.length)) as { name: string; bindings: Record<string, Binding> }[];
    const files = readdirSync(join(root, 'functions'))
      .filter((file) => file.endsWith('.ts'))
      .map((file) => file.replace(/\.ts$/, ''));
    expect(registered.map((r) => r.name).sort()).toEqual(files.sort());

    const trigger = (name: string) => Object.values(registered.find((r) => r.name === name)!.bindings).find((b) => b.direction === 'in')!;
    expect(trigger('ingest-hits')).toMatchObject({ type: 'httpTrigger', route: 'api/hits', methods: ['POST'], authLevel: 'anonymous' });
    expect(trigger('admin-people')).toMatchObject({ type: 'httpTrigger', route: 'api/admin/visitors/people' });
    expect(trigger('keep-hits')).toMatchObject({ type: 'queueTrigger', queueName: '%HITS_QUEUE%', connection: 'AzureWebJobsStorage' });
    // Imported history travels on a queue of its own, named from the hits queue (docs/import.md).
    expect(trigger('import-hits')).toMatchObject({ type: 'httpTrigger', route: 'api/import', methods: ['POST'], authLevel: 'anonymous' });
    expect(trigger('keep-imports')).toMatchObject({
      type: 'queueTrigger',
      queueName: '%HITS_QUEUE%-imports',
      connection: 'AzureWebJobsStorage',
    });
    expect(trigger('recount')).toMatchObject({ type: 'timerTrigger', schedule: '0 */1 * * * *' });
    for (const r of registered) {
      const t = Object.values(r.bindings).find((b) => b.direction === 'in')!;
      if (t.type === 'httpTrigger') expect(t.route!.startsWith('api/') && !/^admin|^runtime/i.test(t.route!)).toBe(true);
    }
  });

  it('stops start-up with a message naming a missing setting', async () => {
    const failed = await loadInWorker(modules, testEnv({ HASH_KEY: undefined })).then(
      () => null,
      (error: { stderr: string }) => error,
    );
    expect(failed).not.toBeNull();
    expect(failed!.stderr).toContain('HASH_KEY');
  });
});
