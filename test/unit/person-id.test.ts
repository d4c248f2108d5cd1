import { scryptSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { derivePersonId, PERSON_HASH_HIGHEST_COST, type PersonIds } from '../../shared/core/identity/person-id';
import { personIds } from '../../shared/core/person-ids';
import { HMAC_PERSON_IDS } from '../support/persons';
import { personHash, utcDay } from '../../shared/core/identity/tokens';
import { daySecretKeeper } from '../../shared/ingest/day-secrets';
import { agentFamily } from '../../shared/core/identity/agent';
import { fixedClock } from '../../shared/core/ports/clock';
import { memoryLogger } from '../../shared/core/ports/logger';
import { manualTime } from '../support/scheduler';
import { ingest } from '../../shared/ingest/ingest';
import { SWITCH_READ_MS, switchedPersonIds, withPersonIds } from '../../shared/ingest/persons';
import { memoryStore } from '../../adapters/memory/store';
import { runMigrations } from '../../shared/fold/migrations/runner';
import { personIdsMigration } from '../../shared/fold/migrations/person-ids';
import { classify, type SeenRequest } from '../../shared/ingest/classify';
import { readSettings } from '../../host/settings';
import { hitsMessageSchema, type QueuedHit } from '../../shared/core/message';
import { AZURE_SHAPE } from '../infra/azure-shape';

const KEY = 'test-hash-key-0123456789abcdef';
const rules = { hashKey: KEY, selfNetworks: [], selfAgentTag: 'headcount-self', ignoredPaths: ['/api/admin'] };
const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
// Tests may lower the cost; production's is PERSON_HASH_PRODUCTION_COST.
const COST = 1;
const SECRET = 'test-day-secret-0123456789abcdef';

const seen = (address: string, extra: Partial<SeenRequest> = {}): SeenRequest => ({
  at: new Date('2026-12-06T10:00:00Z'),
  address,
  userAgent: CHROME,
  path: '/about',
  referrer: null,
  served_by: 'site',
  pageLoad: true,
  subject: null,
  operator: false,
  ...extra,
});

/** Counts what it is asked to derive. */
function counting(): PersonIds & { asked: string[] } {
  const asked: string[] = [];
  return { asked, of: (value) => (asked.push(value), derivePersonId(value, COST)) };
}

describe('the person id', () => {
  it('is scrypt of the person HMAC value with r = 8 and p = 1, 32 hex, never the HMAC value itself', async () => {
    const hmac = personHash(KEY, '203.0.113.7', agentFamily(CHROME));
    const id = await derivePersonId(hmac, 4);
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(id).toBe(scryptSync(hmac, 'headcount person id', 16, { N: 16, r: 8, p: 1 }).toString('hex'));
    expect(id).not.toBe(hmac);
    expect(await derivePersonId(hmac, 4)).toBe(id);
    expect(await derivePersonId(hmac, 5)).not.toBe(id);
  });

  it('is derived once a day per process: the same day answers the same derivation, the next day derives afresh', async () => {
    const time = manualTime('2026-12-06T23:59:59Z');
    const ids = personIds(COST, time);
    const first = ids.of('a'.repeat(32));
    expect(ids.of('a'.repeat(32))).toBe(first);
    await time.elapse(1_000);
    const nextDay = ids.of('a'.repeat(32));
    expect(nextDay).not.toBe(first);
    expect(await nextDay).toBe(await first);
  });

  it('forgets every derivation when the day ends, though no hit comes after midnight', async () => {
    const clock = fixedClock('2026-12-06T23:00:00Z');
    const timers: Array<{ ms: number; task: () => void }> = [];
    const ids = personIds(COST, { now: clock.now, after: (ms, task) => (timers.push({ ms, task }), { cancel: () => undefined }) });
    const first = ids.of('a'.repeat(32));
    expect(ids.of('b'.repeat(32))).not.toBe(first);
    expect(timers.map((timer) => timer.ms)).toEqual([3_600_000]);
    timers[0]!.task();
    expect(ids.of('a'.repeat(32))).not.toBe(first);
    await first;
  });

  it('forgets a derivation that failed, so the next hit tries again', async () => {
    // Past the highest cost scrypt needs more memory than Node allows by default, and fails.
    const ids = personIds(PERSON_HASH_HIGHEST_COST + 1, manualTime('2026-12-06T10:00:00Z'));
    const failed = ids.of('a'.repeat(32));
    await expect(failed).rejects.toThrow(/memory/i);
    const again = ids.of('a'.repeat(32));
    expect(again).not.toBe(failed);
    await expect(again).rejects.toThrow(/memory/i);
  });

  it('remembers a bounded number of visitors, forgetting the oldest first', async () => {
    const ids = personIds(COST, manualTime('2026-12-06T10:00:00Z'), 2);
    const [a, b, c] = [ids.of('a'), ids.of('b'), ids.of('c')];
    expect(ids.of('b')).toBe(b);
    expect(ids.of('a')).not.toBe(a);
    await Promise.all([a, b, c]);
  });
});

describe('the person ids of a batch', () => {
  it('derive each distinct person once, leave the site itself without a person and a cookie visitor as it is', async () => {
    const requests = [
      seen('203.0.113.7'),
      seen('203.0.113.7', { path: '/pricing' }),
      seen('198.51.100.4'),
      seen('127.0.0.1'),
      seen('192.0.2.9', { visitor: 'c'.repeat(32) }),
      seen('203.0.113.7', { path: '/app.js' }),
    ];
    const ids = counting();
    const classified = requests.map((request) => classify(request, rules, SECRET));
    const derived = await withPersonIds(requests, classified, ids);
    const people = derived.map((result) => (result.counted ? result.hit.person : 'not counted'));
    const hmac = (address: string) => personHash(KEY, address, agentFamily(CHROME));
    expect(ids.asked.sort()).toEqual([hmac('198.51.100.4'), hmac('203.0.113.7')].sort());
    expect(people).toEqual([
      await derivePersonId(hmac('203.0.113.7'), COST),
      await derivePersonId(hmac('203.0.113.7'), COST),
      await derivePersonId(hmac('198.51.100.4'), COST),
      null,
      'c'.repeat(32),
      'not counted',
    ]);
  });

  it('reach the queue through ingest in place of the HMAC value', async () => {
    const sent: QueuedHit[] = [];
    const deps = {
      rules,
      secrets: daySecretKeeper({ secrets: memoryStore().secrets, clock: fixedClock('2026-12-06T10:00:00Z'), lateDays: 7, dayOf: utcDay }),
      persons: personIds(COST, manualTime('2026-12-06T10:00:00Z')),
      sender: {
        enqueue: async (hits: readonly QueuedHit[]) => (sent.push(...hits), { ok: true as const }),
        waiting: () => ({ requests: 0, hits: 0 }),
      },
      clock: fixedClock('2026-12-06T10:00:00Z'),
      logger: memoryLogger(),
    };
    await ingest([seen('203.0.113.7')], deps);
    const hmac = personHash(KEY, '203.0.113.7', agentFamily(CHROME));
    expect(sent.map((hit) => hit.person)).toEqual([await derivePersonId(hmac, COST)]);
  });

  it('stay the HMAC values until the switch', async () => {
    const requests = [seen('203.0.113.7')];
    const derived = await withPersonIds(requests, [classify(requests[0]!, rules, SECRET)], HMAC_PERSON_IDS);
    expect(derived[0]).toMatchObject({ hit: { person: personHash(KEY, '203.0.113.7', agentFamily(CHROME)) } });
  });
});

describe('the ingest across the switch', () => {
  it('queues the HMAC value until the person-ids migration is done, then the derived id marked as derived', async () => {
    const store = memoryStore();
    const at = { now: new Date('2026-12-06T10:00:00Z') };
    const clock = { now: () => at.now };
    const ids = switchedPersonIds([store.migrations], personIds(COST, manualTime('2026-12-06T10:00:00Z')), clock);
    const requests = [seen('203.0.113.7')];
    const queued = async () => {
      const [result] = await withPersonIds(requests, [classify(requests[0]!, rules, SECRET)], ids);
      return result!.counted ? result!.hit : null;
    };
    const hmac = personHash(KEY, '203.0.113.7', agentFamily(CHROME));
    expect(await queued()).toMatchObject({ person: hmac });
    expect(await queued()).not.toHaveProperty('person_derived');
    const run = { now: at.now, limit: 10, more: () => Promise.resolve(true) };
    await runMigrations(store.migrations, [personIdsMigration(store.personMoves, (old) => derivePersonId(old, COST), clock)], run);
    // Asked at most once a minute until done.
    expect(await queued()).toMatchObject({ person: hmac });
    at.now = new Date(at.now.getTime() + SWITCH_READ_MS);
    const derived = await queued();
    expect(derived).toMatchObject({ person: await derivePersonId(hmac, COST), person_derived: true });
    // keep-hits reads it off the queue as it was sent.
    expect(hitsMessageSchema.safeParse({ v: 1, id: crypto.randomUUID(), hits: [derived] }).success).toBe(true);
  });
});

describe('the ingest across the switch of several stores', () => {
  it("sends the HMAC value until every store's migration is done, then asks no store again", async () => {
    const [site, other] = [memoryStore(), memoryStore()];
    const at = { now: new Date('2026-12-06T10:00:00Z') };
    const clock = { now: () => at.now };
    let reads = 0;
    const counted = (store: typeof site) => ({ read: (name: string) => (reads++, store.migrations.read(name)) });
    const ids = switchedPersonIds([counted(site), counted(other)], personIds(COST, manualTime('2026-12-06T10:00:00Z')), clock);
    const migrate = (store: typeof site) =>
      runMigrations(store.migrations, [personIdsMigration(store.personMoves, (old) => derivePersonId(old, COST), clock)], {
        now: at.now,
        limit: 10,
        more: () => Promise.resolve(true),
      });
    const later = () => (at.now = new Date(at.now.getTime() + SWITCH_READ_MS));
    expect(await migrate(site)).toBe(true);
    expect(await ids.of('hmac')).toBe('hmac');
    later();
    expect(await ids.of('hmac')).toBe('hmac');
    expect(await migrate(other)).toBe(true);
    expect(await ids.of('hmac')).toBe('hmac');
    later();
    expect(await ids.of('hmac')).toBe(await derivePersonId('hmac', COST));
    const asked = reads;
    later();
    await ids.of('hmac');
    expect(reads).toBe(asked);
  });
});

describe('PERSON_HASH_COST', () => {
  const azure = { ...AZURE_SHAPE, WEBSITE_INSTANCE_ID: '8a2f1c0e4b5d6e7f' };
  const cost = (env: Record<string, string>) => {
    const read = readSettings(env);
    return read.ok ? read.settings.PERSON_HASH_COST : read.problems.map((problem) => `${problem.setting}: ${problem.message}`);
  };

  it('is the production minimum by default, and may be lowered only outside Azure', () => {
    expect(cost(AZURE_SHAPE)).toBe(12);
    expect(cost(azure)).toBe(12);
    expect(cost({ ...azure, PERSON_HASH_COST: '13' })).toBe(13);
    expect(cost({ ...AZURE_SHAPE, PERSON_HASH_COST: '1' })).toBe(1);
    expect(cost({ ...azure, PERSON_HASH_COST: '11' })).toEqual([
      expect.stringMatching(/^PERSON_HASH_COST: is below 12, which is refused in Azure/),
    ]);
    expect(cost({ ...AZURE_SHAPE, PERSON_HASH_COST: '15' })).toEqual(['PERSON_HASH_COST: must be a whole number from 1 to 14']);
  });
});
