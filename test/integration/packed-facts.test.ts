import { randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { FACT_TTL_SECONDS, factId, type Fact } from '../../shared/core/store/facts';
import type { First } from '../../shared/core/store/first-touch';
import { planOf } from '../../shared/keep/plan';
import { queued } from '../support/hits';
import { settle } from '../support/store-clock';
import { freshCosmos, SETTLE_SECONDS } from './keep-helpers';

const DAY = '2026-10-23';
/** Past any watermark the store gives. */
const ALWAYS = Number.MAX_SAFE_INTEGER;

/** A busy message's fact: `visitors` people of random hashes, each a page load and a second page, half of them new today. */
function busyFact(visitors: number): Fact {
  const hex = () => randomBytes(16).toString('hex');
  const people = Array.from({ length: visitors }, (_, n) => ({ n, token: hex(), person: hex() }));
  const hits = people.flatMap(({ n, token, person }) =>
    [0, 1].map((page) =>
      queued(String(n), `${DAY}T12:0${page}:${String(n % 60).padStart(2, '0')}.000Z`, {
        token,
        person,
        self: false,
        network: `203.0.${n}.x`,
        path: `/articles/${page}`,
        page_load: true,
        country: 'US',
        browser: 'firefox',
        system: 'linux',
        device: 'desktop',
      }),
    ),
  );
  const firsts = new Map<string, First>(people.map(({ n, person }) => [person, { day: n % 2 === 0 ? DAY : '2026-10-01', touch: null }]));
  const plan = planOf(hits, firsts).days.get(DAY) ?? { visitorDays: [], hours: [], scans: [], actions: [] };
  const message = randomUUID();
  return {
    id: factId(message),
    pk: DAY,
    kind: 'fact',
    day: DAY,
    message,
    hits: hits.length,
    visitor_days: plan.visitorDays,
    hours: plan.hours,
    scans: plan.scans,
    actions: plan.actions,
    ttl: FACT_TTL_SECONDS,
  };
}

describe('facts on Cosmos DB are kept packed', () => {
  it('a busy message’s fact is kept in a sixth of its plain size, and the fold and now read it back whole', async () => {
    const { store, container } = await freshCosmos();
    const fact = busyFact(40);
    expect(await store.facts.create(fact)).toBe('created');
    expect(await store.facts.create(fact)).toBe('exists');
    const { resource: kept } = await container.item(fact.id, fact.pk).read<Record<string, unknown>>();
    const ownFields = Object.keys(kept!).filter((name) => !name.startsWith('_'));
    expect(ownFields.sort()).toEqual(['day', 'hits', 'id', 'kind', 'message', 'packed', 'pk', 'ttl']);
    // A write costs 5 RU a KB: the plain fact is about 30 KB, the packed one under 5 KB.
    expect(JSON.stringify(kept).length * 6).toBeLessThan(JSON.stringify(fact).length);

    await settle(SETTLE_SECONDS);
    expect((await store.facts.on(DAY, 0, ALWAYS)).map((marked) => marked.doc)).toEqual([fact]);
    expect((await store.facts.firstOn(DAY, 0, ALWAYS, 10)).map((marked) => marked.doc)).toEqual([fact]);
    expect(await store.recent.partsSince(DAY, new Date(0))).toEqual(fact.visitor_days);
  });

  it('a fact kept plain, before facts were packed, is read as it was kept', async () => {
    const { store, documents } = await freshCosmos();
    const fact = busyFact(3);
    expect(await documents.create(fact)).toBe('created');
    await settle(SETTLE_SECONDS);
    expect((await store.facts.on(DAY, 0, ALWAYS)).map((marked) => marked.doc)).toEqual([fact]);
    expect(await store.recent.partsSince(DAY, new Date(0))).toEqual(fact.visitor_days);
  });

  it('an imported day’s fact, with no parts and no actions, reads back with none', async () => {
    const { store } = await freshCosmos();
    const { actions: _none, ...plain } = busyFact(0);
    const imported: Fact = {
      ...plain,
      hits: 0,
      imported: { source: 'plausible', visitors: 5, pageviews: 9, visits: null, pages: { '/': 9 }, sources: {}, countries: { US: 5 } },
    };
    expect(await store.facts.create(imported)).toBe('created');
    await settle(SETTLE_SECONDS);
    expect((await store.facts.on(DAY, 0, ALWAYS)).map((marked) => marked.doc)).toEqual([imported]);
  });
});
