import { describe, expect, it } from 'vitest';
import { memoryStore } from '../../adapters/memory/store';
import { buildRoot, type Root } from '../../host/composition';
import { answerBeacon } from '../../host/http/ingest';
import type { IncomingRequest } from '../../host/http/request';
import { describeProblems, readSettings } from '../../host/settings';
import { CONFIG_MAX_AGE_MS } from '../../shared/core/config/source';
import type { QueuedHit } from '../../shared/core/message';
import { fixedClock } from '../../shared/core/ports/clock';
import { memoryLogger } from '../../shared/core/ports/logger';
import { readConfig, writeConfig } from '../../shared/read/config/manage';
import { countries } from '../support/countries';
import { testSecret } from '../support/day-secrets';
import { AGENTS, browserHeaders } from '../support/http';

// Sites have one source after the first start: the configuration. A site added or removed on one instance is what
// another instance's ingest takes within a minute (the clock says when), with no restart; SITES only seeds it.

const env = {
  HASH_KEY: 'test-hash-key-0123456789abcdef',
  INGEST_KEY: 'test-ingest-key-0123456789',
  OPERATOR_KEY: 'test-operator-key-0123456789',
  AzureWebJobsStorage: 'UseDevelopmentStorage=true',
  STORE: 'memory',
  SITES: 'blog.example=https://blog.example|docs.example=https://docs.example',
  PERSON_HASH_COST: '1',
};

function instance(store: ReturnType<typeof memoryStore>, clock: ReturnType<typeof fixedClock>, settings = env) {
  const read = readSettings(settings);
  if (!read.ok) throw new Error(describeProblems(read.problems));
  const logger = memoryLogger();
  const root = buildRoot(read.settings, { clock, logger, store, countries, blob: null, newSecret: testSecret });
  const sent: QueuedHit[] = [];
  const sender = {
    enqueue: async (batch: readonly QueuedHit[]) => (sent.push(...batch), { ok: true as const }),
    waiting: () => ({ requests: 0, hits: 0 }),
  };
  return { root, logger, sent, receive: { ...root.receive, sender } };
}

function beacon(origin: string, address: string): IncomingRequest {
  const all: Record<string, string> = {
    'content-type': 'text/plain',
    origin,
    'x-forwarded-for': address,
    'user-agent': AGENTS.firefoxLinux,
    ...browserHeaders(AGENTS.firefoxLinux),
  };
  return {
    method: 'POST',
    header: (name) => all[name] ?? null,
    query: new URLSearchParams(),
    params: {},
    text: async () => '{"path":"/"}',
  };
}

/** What the Settings view sends: the configuration read, with its sites changed. */
async function editSites(root: Root, sites: (read: Array<{ name: string; origins: string[] }>) => unknown[]) {
  const read = await readConfig(root.config);
  if (!read.ok) throw new Error('unread');
  const { config, etag } = read.value;
  return writeConfig({ ifMatch: etag, body: { ...config, sites: sites(config.sites) } as never }, root.config);
}

describe('sites edited in the configuration', () => {
  it("are what another instance's beacon takes within a minute, and not before", async () => {
    const store = memoryStore();
    const clock = fixedClock('2026-10-23T12:00:00.000Z');
    const editor = instance(store, clock);
    const other = instance(store, clock);
    expect((await answerBeacon(beacon('https://blog.example', '198.51.100.1'), other.receive)).status).toBe(202);
    const edited = await editSites(editor.root, (sites) => [
      sites[0],
      { name: 'shop.example', origins: ['https://shop.example'], time_zone: 'Asia/Kolkata' },
    ]);
    expect(edited.ok).toBe(true);
    // The instance that saved reads it at once; the other within the minute.
    expect((await answerBeacon(beacon('https://shop.example', '198.51.100.2'), editor.receive)).status).toBe(202);
    clock.advance(CONFIG_MAX_AGE_MS - 1);
    expect((await answerBeacon(beacon('https://shop.example', '198.51.100.3'), other.receive)).status).toBe(403);
    expect((await answerBeacon(beacon('https://docs.example', '198.51.100.4'), other.receive)).status).toBe(202);
    clock.advance(1);
    expect((await answerBeacon(beacon('https://shop.example', '198.51.100.3'), other.receive)).status).toBe(202);
    expect((await answerBeacon(beacon('https://docs.example', '198.51.100.4'), other.receive)).status).toBe(403);
    // 21:00Z on the 23rd is the 24th in Kolkata: the site added keeps its own zone's days from its first.
    clock.set('2026-10-23T21:00:00.000Z');
    expect((await answerBeacon(beacon('https://shop.example', '198.51.100.5'), other.receive)).status).toBe(202);
    expect(other.sent.map((hit) => [hit.site, hit.day])).toEqual([
      ['blog.example', '2026-10-23'],
      ['docs.example', '2026-10-23'],
      ['shop.example', '2026-10-23'],
      ['shop.example', '2026-10-24'],
    ]);
    const sites = await other.root.sites.current();
    expect([...sites.roots.keys()]).toEqual(['blog.example', 'shop.example', '*']);
    // A site removed stops its ingest and keeps its data: what was sent before is still kept and folded.
    expect([...sites.removed.keys()]).toEqual(['docs.example']);
  });

  it("changes a site's zone from the first local midnight after it is set, with no restart", async () => {
    const store = memoryStore();
    const clock = fixedClock('2026-10-23T12:00:00.000Z');
    const one = instance(store, clock);
    expect((await answerBeacon(beacon('https://blog.example', '198.51.100.8'), one.receive)).status).toBe(202);
    const zoned = await editSites(one.root, (sites) => [{ ...sites[0], time_zone: 'Asia/Kolkata' }, sites[1]]);
    expect(zoned.ok).toBe(true);
    // 17:30 in Kolkata when it is set: its 24th begins at 18:30Z, and 21:00Z is in it.
    clock.set('2026-10-23T18:00:00.000Z');
    expect((await answerBeacon(beacon('https://blog.example', '198.51.100.8'), one.receive)).status).toBe(202);
    clock.set('2026-10-23T21:00:00.000Z');
    expect((await answerBeacon(beacon('https://blog.example', '198.51.100.8'), one.receive)).status).toBe(202);
    expect(one.sent.map((hit) => hit.day)).toEqual(['2026-10-23', '2026-10-23', '2026-10-24']);
  });

  it('keeps the first site first, since its documents carry no site name', async () => {
    const { root } = instance(memoryStore(), fixedClock('2026-10-23T12:00:00.000Z'));
    const moved = await editSites(root, (sites) => [sites[1], sites[0]]);
    expect(moved).toMatchObject({ ok: false, failure: { status: 400, issues: [{ path: 'sites.0.name' }] } });
  });

  it('are not taken from SITES after the first start: a setting that differs is logged once', async () => {
    const store = memoryStore();
    const clock = fixedClock('2026-10-23T12:00:00.000Z');
    await instance(store, clock).root.sites.current();
    const later = instance(store, clock, { ...env, SITES: 'blog.example=https://blog.example|new.example=https://new.example' });
    expect((await answerBeacon(beacon('https://new.example', '198.51.100.6'), later.receive)).status).toBe(403);
    expect((await answerBeacon(beacon('https://docs.example', '198.51.100.7'), later.receive)).status).toBe(202);
    // SITES naming another site first moves no keys: the configuration's first site keeps the first documents.
    const moved = instance(store, clock, { ...env, SITES: 'docs.example=https://docs.example|blog.example=https://blog.example' });
    const sites = await moved.root.sites.current();
    expect(sites.roots.get('blog.example')!.store).toBe(store);
    expect(sites.roots.get('docs.example')!.store).not.toBe(store);
    const lines = later.logger.lines.map((line) => JSON.parse(line)).filter((line) => line.level === 'warn');
    expect(lines).toEqual([
      { level: 'warn', message: 'settings differ from the configuration kept; the configuration holds', settings: 'SITES' },
    ]);
  });
});
