import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { localPort, localSettingsFile, plainPort, readLocalSettings, type LocalSettings } from '../../local/local-settings';
import { dashboardBanner } from '../../local/banner';
import { freePort, freePorts } from '../../local/services';
import { resolveTarget } from '../../scripts/import/target';

// One reading of the local host's port for `npm start`, `npm run host`, `npm run simulate`, `npm run import` and the
// banner: `--port`, then PORT, then the settings file's Host.LocalHttpPort, then 7071.

const projectRoot = join(__dirname, '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'headcount-ports-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A settings file of a test's own, with these Values and, when given, Host.LocalHttpPort. */
function settingsFile(name: string, values: Record<string, string>, localHttpPort?: number): string {
  const file = join(dir, name);
  writeFileSync(
    file,
    JSON.stringify({
      IsEncrypted: false,
      Values: values,
      ...(localHttpPort === undefined ? {} : { Host: { LocalHttpPort: localHttpPort } }),
    }),
  );
  return file;
}

const withPort: LocalSettings = { file: '/x/local.settings.json', values: {}, localHttpPort: 7300 };
const without: LocalSettings = { file: '/x/local.settings.json', values: {}, localHttpPort: undefined };

describe('the local port, read one way', () => {
  it('takes --port, then PORT, then Host.LocalHttpPort, then 7071, and says where it read it', () => {
    expect(localPort(['--port', '7100'], { PORT: '7200' }, withPort)).toEqual({ port: 7100, from: '--port' });
    expect(localPort(['--fresh', '--port=7101'], { PORT: '7200' }, withPort)).toEqual({ port: 7101, from: '--port' });
    expect(localPort([], { PORT: '7200' }, withPort)).toEqual({ port: 7200, from: 'PORT' });
    expect(localPort([], { PORT: '' }, withPort)).toEqual({ port: 7300, from: "local.settings.json's Host.LocalHttpPort" });
    expect(localPort([], {}, without)).toEqual({ port: 7071, from: 'the default port' });
  });

  it('refuses what is no port, naming where it was read', () => {
    expect(() => localPort(['--port', 'web'], {}, without)).toThrow('--port: "web" must be a port number');
    expect(() => localPort(['--port'], {}, without)).toThrow('--port: "" must be a port number');
    expect(() => localPort([], { PORT: '70710' }, without)).toThrow('PORT: "70710" must be a port number');
    const bad = settingsFile('bad.json', {}, 'x' as unknown as number);
    expect(() => readLocalSettings(bad)).toThrow(`${bad}: Host.LocalHttpPort`);
  });

  it('reads HEADCOUNT_LOCAL_SETTINGS, else local.settings.json, else the example, with Values and Host.LocalHttpPort', () => {
    const own = settingsFile('own.json', { PORT: '7400' }, 7401);
    expect(localSettingsFile({ HEADCOUNT_LOCAL_SETTINGS: own })).toBe(own);
    const root = join(dir, 'clone');
    mkdirSync(root);
    writeFileSync(join(root, 'local.settings.example.json'), JSON.stringify({ Values: {} }));
    expect(localSettingsFile({}, root)).toBe(join(root, 'local.settings.example.json'));
    writeFileSync(join(root, 'local.settings.json'), JSON.stringify({ Values: {} }));
    expect(localSettingsFile({}, root)).toBe(join(root, 'local.settings.json'));
    expect(readLocalSettings(own)).toEqual({ file: own, values: { PORT: '7400' }, localHttpPort: 7401 });
    // The example's port is func start's own.
    expect(readLocalSettings(join(projectRoot, 'local.settings.example.json')).localHttpPort).toBe(7071);
  });

  it('the banner says plain `npm run simulate` when a second terminal finds the host by itself, else the --port to give', () => {
    const text = (url: string, settings: LocalSettings) =>
      dashboardBanner({
        url,
        plainPort: plainPort(settings),
        operatorKey: 'k',
        allowedOrigins: [],
        sites: undefined,
        countedAs: null,
      }).join('\n');
    expect(text('http://127.0.0.1:7300', withPort)).toContain('People in it npm run simulate    (');
    expect(text('http://127.0.0.1:7071', without)).toContain('People in it npm run simulate    (');
    // Started with --port or PORT, which a second terminal does not have.
    expect(text('http://127.0.0.1:7500', withPort)).toContain('People in it npm run simulate -- --port 7500    (');
  });

  it('npm run import sends to the local host on the port npm start reads, with the key of the same settings', () => {
    const root = join(dir, 'import');
    mkdirSync(root);
    writeFileSync(
      join(root, 'local.settings.json'),
      JSON.stringify({ Values: { INGEST_KEY: 'file-key-0123456789' }, Host: { LocalHttpPort: 7345 } }),
    );
    expect(resolveTarget({}, root, {})).toEqual({
      url: 'http://127.0.0.1:7345',
      key: 'file-key-0123456789',
      from: "local.settings.json, port from local.settings.json's Host.LocalHttpPort",
    });
    expect(resolveTarget({}, root, { PORT: '7346' })).toMatchObject({
      url: 'http://127.0.0.1:7346',
      from: 'local.settings.json, port from PORT',
    });
    expect(resolveTarget({ port: '7347' }, root, { PORT: '7346' })).toMatchObject({ url: 'http://127.0.0.1:7347' });
    expect(resolveTarget({ url: 'https://app.example' }, root, {})).toMatchObject({
      url: 'https://app.example',
      key: 'file-key-0123456789',
    });
  });

  it('npm run simulate finds the host the same way, and says where it looked when nothing answers there', async () => {
    const port = await freePort();
    const file = settingsFile('simulate.json', { INGEST_KEY: 'ingest-key-0123456789', OPERATOR_KEY: 'operator-key-0123456789' }, port);
    const run = await new Promise<{ status: number | null; output: string }>((resolve) => {
      const { PORT: _port, ...env } = process.env;
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', join(projectRoot, 'scripts', 'simulate.ts'), '--days', '1', '--people', '1'],
        {
          cwd: projectRoot,
          env: { ...env, HEADCOUNT_LOCAL_SETTINGS: file },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.once('close', (status) => resolve({ status, output }));
    });
    expect(run.status).toBe(1);
    expect(run.output).toContain(`nothing answers at http://127.0.0.1:${port} (simulate.json's Host.LocalHttpPort): ECONNREFUSED.`);
    expect(run.output).toContain('Is `npm start` running? If it listens elsewhere, name it with --port <n> or --url <address>');
  });
});

describe('the ports a test or a bench chooses for a stack', () => {
  it('are free and never the same port twice, so no two services of one stack meet on one', async () => {
    const ports = await freePorts(32);
    expect(new Set(ports).size).toBe(32);
    const servers = ports.map((port) => createServer().listen(port, '127.0.0.1'));
    await Promise.all(servers.map((server) => new Promise((resolve, reject) => server.once('listening', resolve).once('error', reject))));
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  });
});
