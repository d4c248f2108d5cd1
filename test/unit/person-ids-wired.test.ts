import { describe, expect, it } from 'vitest';
import { buildRoot, type Root } from '../../host/composition';
import { describeProblems, readSettings } from '../../host/settings';
import { HMAC_PERSON_IDS } from '../../shared/core/identity/person-id';
import type { QueuedHit } from '../../shared/core/message';
import type { SeenRequest } from '../../shared/ingest/classify';
import { ingest } from '../../shared/ingest/ingest';
import { SWITCH_READ_MS } from '../../shared/ingest/persons';
import { fold } from '../../shared/fold/fold';
import { keepHits, type KeepDeps } from '../../shared/keep/keep';
import { keepBySite } from '../../shared/keep/sites';
import { migrationStatus } from '../../shared/core/store/migrations';
import { PERSON_IDS_MIGRATION } from '../../shared/core/store/person-moves';
import type { FoldDeps } from '../../shared/fold/fold';
import { testSecret } from '../support/day-secrets';
import { countries } from '../support/countries';

const DAYS = ['2026-12-01', '2026-12-02', '2026-12-03'] as const;
const STORES = ['blog', 'shop', '*'] as const;
const AGENT = 'Mozilla/5.0 (X11; Linux x86_64; rv:131.0) Gecko/20100101 Firefox/131.0';

const env = {
  HASH_KEY: 'test-hash-key-0123456789abcdef',
  INGEST_KEY: 'test-ingest-key-0123456789',
  OPERATOR_KEY: 'test-operator-key-0123456789',
  AzureWebJobsStorage: 'UseDevelopmentStorage=true',
  STORE: 'memory',
  SITES: 'blog=https://blog.example|shop=https://shop.example',
  GOALS: 'pricing=path:/pricing',
  PERSON_HASH_COST: '1',
};

/** One person's request: a person is an address (with one agent). */
const visit = (at: string, address: string, site: 'blog' | 'shop', path = '/', subject: string | null = null): SeenRequest => ({
  at: new Date(at),
  address,
  userAgent: AGENT,
  path,
  referrer: null,
  store: 'site',
  pageLoad: true,
  subject,
  operator: false,
  site,
});

/** What a store's fold, keeps and the ingest are before the switch is registered. */
const unswitchedFold = ({ migrations: _migrations, persons: _persons, ...deps }: FoldDeps): FoldDeps => deps;
const unswitchedKeep = ({ personSwitch: _switch, ...deps }: KeepDeps): KeepDeps => deps;

/** A deployment of two sites and `*`, each in its own memory store, driven through the composition root's own use cases. */
function deploymentOf(switched: boolean) {
  const read = readSettings(env);
  if (!read.ok) throw new Error(describeProblems(read.problems));
  const at = { now: new Date(`${DAYS[0]}T12:00:00.000Z`) };
  const clock = { now: () => at.now };
  const root: Root = buildRoot(read.settings, { clock, countries, blob: null, newSecret: testSecret });
  const queued: QueuedHit[][] = [];
  const storeOf = (name: string) => root.sites.roots.get(name)!;
  return {
    at,
    root,
    queued,
    async send(requests: SeenRequest[]) {
      const sender = {
        enqueue: async (hits: readonly QueuedHit[]) => (queued.push([...hits]), { ok: true as const }),
        waiting: () => ({ requests: 0, hits: 0 }),
      };
      const outcome = await ingest(requests, { ...root.receive, sender, ...(switched ? {} : { persons: HMAC_PERSON_IDS }) });
      expect(outcome.ok).toBe(true);
      const hits = queued.at(-1)!;
      const keepOf = (site: string) => {
        const deps = root.sites.roots.get(site)?.keep;
        return deps && (switched ? deps : unswitchedKeep(deps));
      };
      const kept = await keepBySite(
        { v: 1, id: crypto.randomUUID(), hits },
        { firstSite: 'blog', keepOf, allSitesFrom: root.sites.allSitesFrom },
        keepHits,
      );
      expect(kept).toMatchObject({ ok: true });
      return hits;
    },
    /** Each store's fold as the timer runs it; `migrating` names the stores whose migration is registered this run. */
    async fold(migrating: readonly string[] = []) {
      for (const name of STORES) {
        const deps = storeOf(name).fold;
        const outcome = await fold(switched && migrating.includes(name) ? deps : unswitchedFold(deps));
        expect(outcome).toMatchObject({ ok: true });
      }
      await root.sites.markAllSitesFrom();
      at.now = new Date(at.now.getTime() + 10 * 60_000);
    },
    done: (name: string) => migrationStatus(storeOf(name).store.migrations, PERSON_IDS_MIGRATION),
  };
}

type Deployment = ReturnType<typeof deploymentOf>;

/** What the figures of a store are, whatever id its people are kept under; a day's sketches hold the ids, so they are left out. */
async function figures(deployment: Deployment, name: string) {
  const { store } = deployment.root.sites.roots.get(name)!;
  const rollups = await store.rollupReader.onDays(DAYS);
  const counts = Object.fromEntries(
    [...rollups].map(([day, rollup]) => [
      day,
      Object.fromEntries(Object.entries(rollup).filter(([key]) => !key.endsWith('sketch') && !['folded_to', '_etag'].includes(key))),
    ]),
  );
  const subject = (await store.subjects.summaries.read('poster'))?.doc;
  return {
    people: (await store.visitorsSummary.read())?.doc,
    visits: (await store.visits.read())?.doc,
    records: await Promise.all(DAYS.map((day) => store.recordCounts.countsOn(day))),
    rollups: counts,
    goal: (await store.goals.summaries.read('pricing'))?.doc,
    subject: subject && { scans: subject.scans, unique: subject.unique, by_day: subject.by_day, last_scan: subject.last_scan },
  };
}

/** Three days of two sites' visitors: blog's migration is done on day 2, shop's and `*`'s later that day. */
async function history(deployment: Deployment, checks: (step: 'blog done' | 'all done', probe: QueuedHit[]) => Promise<void>) {
  const { send, at } = deployment;
  // A visitor of shop a minute later, once the ingest has asked again.
  const probe = async () => {
    at.now = new Date(at.now.getTime() + SWITCH_READ_MS);
    return send([visit(at.now.toISOString(), '198.51.100.9', 'shop', '/probe')]);
  };
  const [a, b, c, d, e, f] = ['203.0.113.1', '203.0.113.2', '203.0.113.3', '203.0.113.4', '203.0.113.5', '203.0.113.6'];
  await send([
    visit(`${DAYS[0]}T10:00:00Z`, a, 'blog', '/pricing', 'poster'),
    visit(`${DAYS[0]}T10:05:00Z`, b, 'shop', '/pricing'),
    visit(`${DAYS[0]}T10:10:00Z`, c, 'blog'),
    visit(`${DAYS[0]}T10:15:00Z`, c, 'shop', '/pricing'),
  ]);
  await deployment.fold();
  at.now = new Date(`${DAYS[1]}T08:00:00.000Z`);
  await send([visit(`${DAYS[1]}T07:00:00Z`, a, 'shop', '/pricing'), visit(`${DAYS[1]}T07:05:00Z`, d, 'blog', '/', 'poster')]);
  await deployment.fold(['blog']);
  await checks('blog done', await probe());
  await send([
    visit(`${DAYS[1]}T08:30:00Z`, a, 'blog', '/', 'poster'),
    visit(`${DAYS[1]}T08:35:00Z`, b, 'blog', '/pricing'),
    visit(`${DAYS[1]}T08:40:00Z`, e, 'shop', '/pricing', 'poster'),
  ]);
  await deployment.fold(['blog']);
  await deployment.fold(STORES);
  await checks('all done', await probe());
  at.now = new Date(`${DAYS[2]}T09:00:00.000Z`);
  await send([
    visit(`${DAYS[2]}T08:00:00Z`, a, 'blog', '/pricing', 'poster'),
    visit(`${DAYS[2]}T08:05:00Z`, b, 'shop'),
    visit(`${DAYS[2]}T08:10:00Z`, e, 'blog', '/pricing'),
    visit(`${DAYS[2]}T08:15:00Z`, f, 'shop', '/pricing', 'poster'),
    visit(`${DAYS[2]}T08:20:00Z`, d, 'blog', '/pricing', 'poster'),
  ]);
  await deployment.fold(STORES);
  await deployment.fold(STORES);
}

describe('the switch to person ids as the composition root wires it, two sites and all sites', () => {
  it("counts as a deployment never switched, and the ingest sends derived ids only once every store's migration is done", async () => {
    const control = deploymentOf(false);
    await history(control, () => Promise.resolve());
    const moved = deploymentOf(true);
    await history(moved, async (step, probe) => {
      const derived = probe.every((hit) => hit.person_derived === true);
      if (step === 'blog done') {
        expect(await moved.done('blog')).toMatchObject({ done: true });
        expect(await moved.done('shop')).toMatchObject({ done: false });
        expect(await moved.done('*')).toMatchObject({ done: false });
        expect(derived).toBe(false);
      } else {
        for (const name of STORES) expect(await moved.done(name)).toMatchObject({ done: true });
        expect(derived).toBe(true);
      }
    });
    for (const name of STORES) {
      expect(await figures(moved, name), name).toEqual(await figures(control, name));
      // Every record moved: none is left under an HMAC value.
      expect(await moved.root.sites.roots.get(name)!.store.personMoves.unmoved(10)).toEqual([]);
    }
    expect(await figures(moved, '*')).toMatchObject({
      people: { people_all_time: 7 },
      goal: { people_all_time: 6 },
      subject: { scans: 6, unique: 4 },
    });
    expect(control.queued.flat().some((hit) => hit.person_derived === true)).toBe(false);
  });
});
