import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { COSMOS_EMULATOR_KEY, serviceUrl } from '../../host/local/services';
import { AGENTS, browserHeaders, post } from '../support/http';
import { failedStart, listens, stackPlace, startStack, type StackPlace, type StackProcess } from '../support/stack-process';
import { settle } from '../support/store-clock';

// `npm start` as a newcomer meets it: a bad setting stops it before anything runs, a start that fails once its services
// are up stops them, and the next start, with good settings, runs, on free ports of the test's own. That start reads
// its port from the settings file's Host.LocalHttpPort, as `npm run simulate` does, and with --count-me counts a click
// from this machine's browser as a person's event.

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Every port a place's stack listens on: Azurite's three, the Cosmos server's and the host's. */
function portsOf(place: StackPlace): number[] {
  const storage = place.env.AzureWebJobsStorage;
  return [
    ...(['Blob', 'Queue', 'Table'] as const).map((kind) => Number(serviceUrl(storage, kind)!.port)),
    Number(new URL(place.env.COSMOS_ENDPOINT!).port),
    Number(new URL(place.url).port),
  ];
}

async function listening(place: StackPlace): Promise<number[]> {
  const ports = portsOf(place);
  const open = await Promise.all(ports.map((port) => listens(port)));
  return ports.filter((_, i) => open[i]);
}

describe('npm start: settings first, nothing left behind', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'headcount-start-'));
  let stack: StackProcess | undefined;
  let squatter: Server | undefined;
  afterAll(async () => {
    await stack?.kill();
    squatter?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /**
   * The place with no PORT: the host's port comes from a settings file of the test's own (Host.LocalHttpPort), the
   * other settings from the environment.
   */
  async function place(settings: Record<string, string> = {}): Promise<StackPlace> {
    const made = await stackPlace(dataDir, {
      ALLOWED_ORIGINS: 'http://localhost:8080',
      'AzureWebJobs.recount.Disabled': 'true',
      ...settings,
    });
    const { PORT, ...env } = made.env;
    const file = join(dataDir, 'local.settings.test.json');
    const values = { COSMOS_KEY: COSMOS_EMULATOR_KEY };
    writeFileSync(file, JSON.stringify({ IsEncrypted: false, Values: values, Host: { LocalHttpPort: Number(PORT) } }));
    return { ...made, env: { ...env, HEADCOUNT_LOCAL_SETTINGS: file } };
  }

  it('a bad setting, or --count-me in Azure, stops the start before any service runs, naming the setting', async () => {
    const bad = await place({ PULSE_GOAL: 'signup' });
    const run = await failedStart(bad);
    expect(run.status).not.toBe(0);
    expect(run.output).toContain('PULSE_GOAL: names no goal in GOALS (none set)');
    expect(run.output).not.toContain('Azurite blob, queue, table');
    expect(run.left).toEqual([]);

    // An endpoint that is no URL is named too, not taken for the default port.
    const endpoint = await failedStart(await place({ COSMOS_ENDPOINT: 'cosmos at 8081' }));
    expect(endpoint.output).toContain('COSMOS_ENDPOINT: must be an absolute URL');
    expect(endpoint.output).not.toContain('Azurite blob, queue, table');

    // --count-me is for a local stack: where WEBSITE_INSTANCE_ID is set (Azure) it is refused, naming the setting; the
    // keys and the person id's cost are as Azure asks, so that refusal is the one made.
    const strong = randomBytes(32).toString('base64url');
    const azure = await place({ WEBSITE_INSTANCE_ID: 'a1b2c3', OPERATOR_KEY: strong, INGEST_KEY: strong, PERSON_HASH_COST: '12' });
    const refused = await failedStart(azure, ['--count-me']);
    expect(refused.status).not.toBe(0);
    expect(refused.output).toContain('--count-me is refused in Azure (WEBSITE_INSTANCE_ID is set)');
    expect(refused.output).not.toContain('Azurite blob, queue, table');
    expect(refused.left).toEqual([]);
  }, 120_000);

  it('a start that fails once its services are up stops them all: no Azurite, no Cosmos server left', async () => {
    const taken = await place();
    // Something else holds the host's port, so the start fails after Azurite and the Cosmos server came up.
    const hostPort = Number(new URL(taken.url).port);
    squatter = createServer();
    await new Promise<void>((resolve) => squatter!.listen(hostPort, '127.0.0.1', () => resolve()));
    const run = await failedStart(taken);
    expect(run.status).not.toBe(0);
    expect(run.output).toContain('Azurite blob, queue, table');
    expect(run.output).toContain('EADDRINUSE');
    // Nothing of it runs: its Azurite and Cosmos server stopped with it. (Their ports are free again, so another test
    // file's server may take one: the start's own process group is what is looked at.)
    expect(run.left).toEqual([]);
    expect(await listening(taken)).toContain(hostPort);
    await new Promise<void>((resolve) => squatter!.close(() => resolve()));
    squatter = undefined;

    // The next start, the setting mended, on the same ports: it runs.
    stack = await startStack(taken, ['--fresh']);
    expect(await listening(taken)).toEqual(portsOf(taken));
    expect(await stack.interrupt()).toEqual([]);
  }, 240_000);

  it('with Host.LocalHttpPort and --count-me: the banner says plain `npm run simulate`, and a click from this machine is a person’s event', async () => {
    const good = await place();
    stack = await startStack(good, ['--count-me']);
    const banner = stack.output();
    expect(banner).toContain(`Dashboard    ${good.url}/api/admin`);
    expect(banner).toContain('People in it npm run simulate    (');
    expect(banner).toMatch(/Your own page loads from this machine are counted \(--count-me\): a request from loopback is seen as from \S+/);

    // A data-headcount-event button's click, from a page of this machine, as the snippet sends it.
    const headers = { ...browserHeaders(AGENTS.firefoxLinux), 'user-agent': AGENTS.firefoxLinux, origin: 'http://localhost:8080' };
    expect((await post(`${good.url}/api/beacon`, { path: '/', event: 'download-cv' }, headers)).status).toBe(202);
    // Kept by keep-hits on its own, then folded: the fold is run (its store clock moved past the settle margin) until it
    // has the click, since the queue's count drops as keep-hits takes the message, before it has kept it.
    let events: Array<{ event: string; count: number }> = [];
    for (let tries = 0; tries < 100 && events.length === 0; tries++) {
      if (tries > 0) await wait(100);
      await settle(Number(good.env.FOLD_SETTLE_SECONDS), good.env.COSMOS_ENDPOINT);
      expect((await fetch(`${good.url}/admin/functions/recount`, { method: 'POST' })).status).toBe(202);
      const response = await fetch(`${good.url}/api/admin/activity?days=1`, { headers: { 'x-operator-key': good.env.OPERATOR_KEY! } });
      events = ((await response.json()) as { events: typeof events }).events;
    }
    expect(events).toEqual([expect.objectContaining({ event: 'download-cv', count: 1 })]);
  }, 240_000);
});
