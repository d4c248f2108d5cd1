import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, daysEnding } from '../../shared/core/days';
import { agentFamily } from '../../shared/core/identity/agent';
import { fixedClock } from '../../shared/core/ports/clock';
import { memoryLogger } from '../../shared/core/ports/logger';
import { containerOf, storedDocuments } from '../support/cosmos';
import { startTestHost, type TestHost } from '../support/host';
import { AGENTS, browserHeaders } from '../support/http';
import { addressSearch, expectNoSecret, networksIn } from '../support/privacy';
import { testEnv } from '../support/env';
import { QueueClient } from '@azure/storage-queue';
import { azureHitQueue } from '../../adapters/azure-hit-queue';
import type { HitQueue } from '../../shared/core/ports/queue';

// Issue 51 (4): thirteen days of traffic, the timer run each day; then the holder of HASH_KEY takes a dump of every
// document and every message the queue (or its poison queue) was given, and searches each /24 (256 addresses × the agent
// families) for a value in the dump. Nothing older than a day's secret comes back: no /24 is kept at all, and a day's
// tokens cannot be made again once its secret is deleted, even from a /24 known from elsewhere.

const FIRST = '2026-10-08';
const LAST = '2026-10-20';
const DAYS = daysEnding(LAST, 13);
const NOW = `${LAST}T20:00:00.000Z`;
/** The days whose secret the timer has deleted by NOW: ended at UTC−12, plus HIT_MAX_AGE_DAYS (7). */
const GONE = DAYS.filter((day) => day <= '2026-10-12');

const NETWORKS = ['203.0.113.x', '198.51.100.x', '192.0.2.x'];
const BROWSERS: string[] = [AGENTS.chromeWindows, AGENTS.firefoxLinux, AGENTS.safariIphone];
const FAMILIES = [...new Set([...BROWSERS, AGENTS.googlebot, AGENTS.curl].map((agent) => agentFamily(agent)))];

/** A day's hits: each network's few addresses, each with a browser of its own (one with two), and a crawler. */
function hitsOf(day: string, n: number) {
  const hits = NETWORKS.flatMap((network, i) =>
    [10, 11, 12].map((host, j) => ({
      at: `${day}T${String(8 + j).padStart(2, '0')}:${String(10 * i).padStart(2, '0')}:00Z`,
      address: network.replace('x', String(host + n)),
      user_agent: BROWSERS[(i + j) % BROWSERS.length],
      path: `/articles/${j}`,
      referrer: 'https://github.com/someone/repo',
      page_load: true,
    })),
  );
  hits.push({ ...hits[0]!, user_agent: AGENTS.firefoxLinux, path: '/about' });
  hits.push({ ...hits[1]!, user_agent: AGENTS.googlebot, path: '/' });
  return hits;
}

describe("the day's secret: an address search with HASH_KEY on a dump of the store", () => {
  let t: TestHost;
  const clock = fixedClock(`${FIRST}T12:00:00Z`);
  const logger = memoryLogger();
  const answers: string[] = [];
  let dump = '';
  let documents: Array<Record<string, unknown>> = [];
  const messages: string[] = [];
  /** Sent before the ingest learned the switch to person ids was done, so they carry person hashes. */
  let sentBeforeSwitch = 0;

  const post = async (day: string, n: number) => {
    const response = await fetch(`${t.host.url}/api/hits`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-ingest-key': t.env.INGEST_KEY! },
      body: JSON.stringify({ hits: hitsOf(day, n) }),
    });
    answers.push(await response.text());
    expect(response.status).toBe(202);
    const beacon = await fetch(`${t.host.url}/api/beacon`, {
      method: 'POST',
      headers: {
        'content-type': 'text/plain',
        ...browserHeaders(AGENTS.chromeWindows),
        origin: 'https://site.example',
        'user-agent': AGENTS.chromeWindows,
        'x-forwarded-for': `203.0.113.${200 + n}`,
      },
      body: JSON.stringify({ path: '/beacon' }),
    });
    answers.push(await beacon.text());
    expect(beacon.status).toBe(202);
  };

  beforeAll(async () => {
    const env = testEnv({ TRUSTED_PROXY_HOPS: '1', ALLOWED_ORIGINS: 'https://site.example' });
    // Every message as it goes on the queue (and, unchanged, to its poison queue should it never be read).
    const queue = azureHitQueue(new QueueClient(env.AzureWebJobsStorage!, env.HITS_QUEUE!));
    const hitQueue: HitQueue = {
      sendAll: async (texts) => {
        messages.push(...texts.map((text) => Buffer.from(text, 'base64').toString('utf8')));
        return queue.sendAll(texts);
      },
    };
    t = await startTestHost({ env, overrides: { clock, logger, hitQueue } });
    const container = await containerOf(t.env);
    for (const [n, day] of DAYS.entries()) {
      clock.set(`${day}T12:00:00Z`);
      await post(day, n);
      await t.host.drain();
      await t.fold();
      if (n === 0) sentBeforeSwitch = messages.length;
    }
    clock.set(NOW);
    await t.fold();
    const admin = { authorization: `Bearer ${t.env.OPERATOR_KEY!}` };
    for (const path of [
      '/api/pulse',
      '/api/admin/visitors/people',
      '/api/admin/activity?days=30',
      ...DAYS.map((day) => `/api/admin/activity/visitors?day=${day}`),
      '/api/admin/now',
      `/api/admin/export?from=${FIRST}&to=${LAST}`,
    ]) {
      const response = await fetch(`${t.host.url}${path}`, { headers: admin });
      expect(response.status, path).toBe(200);
      answers.push(await response.text());
    }
    documents = (await storedDocuments(container)).documents as Array<Record<string, unknown>>;
    expect(messages.length).toBeGreaterThanOrEqual(DAYS.length);
    dump = [...documents.map((doc) => JSON.stringify(doc)), ...messages].join('\n');
  });
  afterAll(() => t?.stop());

  /** Each day's secret the dump holds, by the secret. */
  const secretsInDump = () =>
    new Map(documents.filter((doc) => doc.kind === 'day-secret').map((doc) => [String(doc.secret), String(doc.day)] as const));

  it('kept the traffic of every day', () => {
    const visitorDays = documents.filter((doc) => doc.kind === 'visitor-day');
    expect(new Set(visitorDays.map((doc) => doc.day))).toEqual(new Set(DAYS));
  });

  it('keeps no /24 anywhere, so a search of the kept /24s recovers no one', () => {
    const kept = networksIn(dump);
    const recovered = addressSearch(dump, { hashKey: t.env.HASH_KEY!, families: FAMILIES, networks: kept, secrets: secretsInDump() });
    expect({ kept, recovered }).toEqual({ kept: [], recovered: [] });
  });

  it('once the records moved to person ids, nothing kept or sent after the switch holds a person hash of the known /24s', () => {
    const migration = documents.find((doc) => doc.kind === 'migration' && doc.name === 'person-ids');
    expect(migration).toMatchObject({ done_at: expect.stringMatching(new RegExp(`^${FIRST}`)) });
    const records = documents.filter((doc) => doc.kind === 'visitor-record');
    expect(records.length).toBeGreaterThan(0);
    expect(records.every((doc) => doc.derived === true)).toBe(true);
    // By design the old ids stay, until they expire, in the moves' markers (a week) and the facts kept before the switch (46 days).
    const markers = documents.filter((doc) => doc.kind === 'person-moved');
    expect(markers.every((doc) => doc.ttl === 604_800)).toBe(true);
    const before = (doc: Record<string, unknown>) => doc.kind === 'person-moved' || (doc.kind === 'fact' && String(doc.day) <= FIRST);
    const persons = (text: string) =>
      addressSearch(text, { hashKey: t.env.HASH_KEY!, families: FAMILIES, networks: NETWORKS, secrets: new Map() }).filter(
        (found) => found.when === 'person',
      );
    const after = [...documents.filter((doc) => !before(doc)).map((doc) => JSON.stringify(doc)), ...messages.slice(sentBeforeSwitch)];
    expect(persons(after.join('\n'))).toEqual([]);
    // The same search finds the person hashes kept before the switch, so it would find any kept after it.
    expect(persons(dump).length).toBeGreaterThan(0);
  });

  it('holds only the secrets of days that can still receive hits: the timer deleted the others', () => {
    expect([...secretsInDump().values()].sort()).toEqual(DAYS.filter((day) => !GONE.includes(day)));
  });

  it("makes no token older than its day's secret, even from the /24s known from elsewhere; a kept day's tokens are found", () => {
    const tokens = addressSearch(dump, {
      hashKey: t.env.HASH_KEY!,
      families: FAMILIES,
      networks: NETWORKS,
      secrets: secretsInDump(),
    }).filter((found) => found.when !== 'person');
    expect(tokens.filter((found) => GONE.includes(found.when))).toEqual([]);
    // Within its window a dump's secret makes the day's tokens: the threat table says so.
    expect(new Set(tokens.map((found) => found.when))).toEqual(new Set(DAYS.slice(-8)));
  });

  it('never answers or logs a secret', () => {
    const secrets = [...secretsInDump().keys()];
    expect(secrets.length).toBe(DAYS.length - GONE.length);
    expectNoSecret([...answers, ...logger.lines].join('\n'), secrets, 'an answer or the log');
    expectNoSecret(messages.join('\n'), secrets, 'a message');
  });

  it('refuses a hit of a day whose secret is gone', async () => {
    const response = await fetch(`${t.host.url}/api/hits`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-ingest-key': t.env.INGEST_KEY! },
      body: JSON.stringify({ hits: [{ ...hitsOf(GONE.at(-1)!, 0)[0]!, at: `${addDays(GONE.at(-1)!, 0)}T23:59:00Z` }] }),
    });
    expect(response.status).toBe(400);
  });
});
