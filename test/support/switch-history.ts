import { expect } from 'vitest';
import type { Root } from '../../host/composition';
import type { QueuedHit } from '../../shared/core/message';
import type { Store } from '../../shared/core/store';
import { migrationStatus } from '../../shared/core/store/migrations';
import { PERSON_IDS_MIGRATION } from '../../shared/core/store/person-moves';
import { fold, type FoldDeps } from '../../shared/fold/fold';
import { SWITCH_READ_MS } from '../../shared/ingest/persons';

// Three days of two sites' visitors across the switch to person ids, for a deployment the composition root wires:
// blog's migration is done on day 2, shop's and all sites' later that day.

export const SWITCH_DAYS = ['2026-12-01', '2026-12-02', '2026-12-03'] as const;
export const SWITCH_STORES = ['blog', 'shop', '*'] as const;
export const SWITCH_SITES = 'blog=https://blog.example|shop=https://shop.example';
export const SWITCH_GOALS = 'pricing=path:/pricing';
export const SWITCH_AGENT = 'Mozilla/5.0 (X11; Linux x86_64; rv:131.0) Gecko/20100101 Firefox/131.0';

/** One person's request: a person is an address, all with one agent. */
export interface Visit {
  at: string;
  address: string;
  site: 'blog' | 'shop';
  path: string;
  subject: string | null;
}

export interface SwitchDeployment {
  root: Root;
  at: { now: Date };
  /** Through the ingest and keep-hits; answers the hits the ingest queued. */
  send(visits: Visit[]): Promise<QueuedHit[]>;
  /** Every write so far settled, for the fold to read. */
  settle(): Promise<void>;
}

const visit = (at: string, address: string, site: 'blog' | 'shop', path = '/', subject: string | null = null): Visit => ({
  at,
  address,
  site,
  path,
  subject,
});

/** What a store's fold is before the switch is registered. */
const unswitchedFold = ({ migrations: _migrations, persons: _persons, ...deps }: FoldDeps): FoldDeps => deps;

/**
 * Each store's fold as the timer runs it, then the day all sites began marked; `migrating` names the stores whose
 * migration is registered in this run, none in a deployment never switched.
 */
async function foldAll(deployment: SwitchDeployment, migrating: readonly string[]) {
  await deployment.settle();
  for (const name of SWITCH_STORES) {
    const deps = (await deployment.root.sites.current()).roots.get(name)!.fold;
    expect(await fold(migrating.includes(name) ? deps : unswitchedFold(deps))).toMatchObject({ ok: true });
  }
  await (await deployment.root.sites.current()).markAllSitesFrom();
  deployment.at.now = new Date(deployment.at.now.getTime() + 10 * 60_000);
}

export const switchDone = async (deployment: SwitchDeployment, name: string) =>
  migrationStatus((await deployment.root.sites.current()).roots.get(name)!.store.migrations, PERSON_IDS_MIGRATION);

/** `switched` false runs no migration, as a deployment never switched; `checks` sees the hits of a probe sent a minute after each step. */
export async function switchHistory(
  deployment: SwitchDeployment,
  switched: boolean,
  checks: (step: 'blog done' | 'all done', probe: QueuedHit[]) => Promise<void> = () => Promise.resolve(),
) {
  const { send, at } = deployment;
  const migrating = (names: readonly string[]) => (switched ? names : []);
  const [a, b, c, d, e, f] = ['203.0.113.1', '203.0.113.2', '203.0.113.3', '203.0.113.4', '203.0.113.5', '203.0.113.6'];
  // A visitor of shop a minute later, once the ingest has asked again.
  const probe = async () => {
    at.now = new Date(at.now.getTime() + SWITCH_READ_MS);
    return send([visit(at.now.toISOString(), '198.51.100.9', 'shop', '/probe')]);
  };
  const [day1, day2, day3] = SWITCH_DAYS;
  await send([
    visit(`${day1}T10:00:00.000Z`, a, 'blog', '/pricing', 'poster'),
    visit(`${day1}T10:05:00.000Z`, b, 'shop', '/pricing'),
    visit(`${day1}T10:10:00.000Z`, c, 'blog'),
    visit(`${day1}T10:15:00.000Z`, c, 'shop', '/pricing'),
  ]);
  await foldAll(deployment, []);
  at.now = new Date(`${day2}T08:00:00.000Z`);
  await send([visit(`${day2}T07:00:00.000Z`, a, 'shop', '/pricing'), visit(`${day2}T07:05:00.000Z`, d, 'blog', '/', 'poster')]);
  await foldAll(deployment, migrating(['blog']));
  await checks('blog done', await probe());
  await send([
    visit(`${day2}T08:12:00.000Z`, a, 'blog', '/', 'poster'),
    visit(`${day2}T08:13:00.000Z`, b, 'blog', '/pricing'),
    visit(`${day2}T08:14:00.000Z`, e, 'shop', '/pricing', 'poster'),
  ]);
  await foldAll(deployment, migrating(['blog']));
  await foldAll(deployment, migrating(SWITCH_STORES));
  await checks('all done', await probe());
  at.now = new Date(`${day3}T09:00:00.000Z`);
  await send([
    visit(`${day3}T08:00:00.000Z`, a, 'blog', '/pricing', 'poster'),
    visit(`${day3}T08:05:00.000Z`, b, 'shop'),
    visit(`${day3}T08:10:00.000Z`, e, 'blog', '/pricing'),
    visit(`${day3}T08:15:00.000Z`, f, 'shop', '/pricing', 'poster'),
    visit(`${day3}T08:20:00.000Z`, d, 'blog', '/pricing', 'poster'),
  ]);
  await foldAll(deployment, migrating(SWITCH_STORES));
  await foldAll(deployment, migrating(SWITCH_STORES));
}

/** A store's figures, whatever id its people are kept under; a day's sketches hold the ids, so they are left out. */
export async function switchFigures(store: Store) {
  const rollups = await store.rollupReader.onDays(SWITCH_DAYS);
  const counts = Object.fromEntries(
    [...rollups].map(([day, rollup]) => [
      day,
      Object.fromEntries(Object.entries(rollup).filter(([key]) => !key.endsWith('sketch') && !key.startsWith('_') && key !== 'folded_to')),
    ]),
  );
  const subject = (await store.subjects.summaries.read('poster'))?.doc;
  return {
    people: (await store.visitorsSummary.read())?.doc,
    visits: (await store.visits.read())?.doc,
    records: await Promise.all(SWITCH_DAYS.map((day) => store.recordCounts.countsOn(day))),
    rollups: counts,
    goal: (await store.goals.summaries.read('pricing'))?.doc,
    subject: subject && { scans: subject.scans, unique: subject.unique, by_day: subject.by_day, last_scan: subject.last_scan },
  };
}

/** Each store's figures equal the control's, every record moved, and all sites' figures are the scenario's. */
export async function expectSameFigures(moved: SwitchDeployment, control: SwitchDeployment) {
  for (const name of SWITCH_STORES) {
    const { store } = (await moved.root.sites.current()).roots.get(name)!;
    expect(await switchFigures(store), name).toEqual(await switchFigures((await control.root.sites.current()).roots.get(name)!.store));
    // None is left under an HMAC value.
    expect(await store.personMoves.unmoved(10)).toEqual([]);
  }
  expect(await switchFigures((await moved.root.sites.current()).roots.get('*')!.store)).toMatchObject({
    people: { people_all_time: 7 },
    goal: { people_all_time: 6 },
    subject: { scans: 6, unique: 4 },
  });
}

/** The ingest sends HMAC ids while one store's migration is left, and derived ids once every store's is done. */
export async function expectIngestWaitsForEveryStore(moved: SwitchDeployment, step: 'blog done' | 'all done', probe: QueuedHit[]) {
  const derived = probe.length > 0 && probe.every((hit) => hit.person_derived === true);
  if (step === 'blog done') {
    expect(await switchDone(moved, 'blog')).toMatchObject({ done: true });
    expect(await switchDone(moved, 'shop')).toMatchObject({ done: false });
    expect(await switchDone(moved, '*')).toMatchObject({ done: false });
    expect(derived).toBe(false);
  } else {
    for (const name of SWITCH_STORES) expect(await switchDone(moved, name)).toMatchObject({ done: true });
    expect(derived).toBe(true);
  }
}
