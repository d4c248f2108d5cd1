import type { GoalSummary } from '../../shared/core/store/goals';
import { describe, expect, it } from 'vitest';
import { memoryStore } from '../../adapters/memory/store';
import { goalsOf } from '../../shared/read/activity/report';
import { eventsOf, periodOf } from '../../shared/read/activity/period';
import { funnelStepsSetting } from '../../shared/core/funnel';
import { funnelOf } from '../../shared/read/activity/funnel';
import { goalsSetting, propProblem, propsSchema } from '../../shared/core/events/events';
import { fold } from '../../shared/fold/fold';
import { TIMER_FOLD_BUDGET } from '../../shared/fold/budget';
import type { QueuedHit } from '../../shared/core/message';
import { fixedClock } from '../../shared/core/ports/clock';
import type { Store } from '../../shared/core/store';
import { scanRules } from '../../shared/core/subjects/scan-rule';
import { failingAfter } from '../integration/keep-helpers';
import { hex, keepHits, queuedHit } from '../support/counting';

const GOALS = goalsSetting.parse('signup=event:signup|cv=event:download-cv|pricing=path:/pricing,/pricing/');
const NOW = '2026-10-23T20:00:00.000Z';

const event = (at: string, person: string | null, name: string, more: Partial<QueuedHit> = {}): QueuedHit => ({
  ...queuedHit(at, { person, self: person === null }),
  page_load: false,
  event: name,
  ...more,
});

/**
 * Three days of a site with goals whose truth is known: ann signs up on the 21st and again on the 23rd (one person
 * ever, two conversions), bob reads the pricing on the 21st and the 22nd and signs up on the 22nd, cat downloads the CV
 * on the 23rd, a crawler fires signup (a scanner: never a conversion), the site's own read fires signup (self: never).
 */
const TRAFFIC: QueuedHit[][] = [
  [
    event('2026-10-21T10:00:00.000Z', 'ann', 'signup', { props: { plan: 'pro' } }),
    queuedHit('2026-10-21T10:01:00.000Z', { person: 'bob', path: '/pricing' }),
  ],
  [
    queuedHit('2026-10-22T09:00:00.000Z', { person: 'bob', path: '/pricing/' }),
    event('2026-10-22T09:05:00.000Z', 'bob', 'signup', { props: { plan: 'free' } }),
  ],
  [
    event('2026-10-22T11:00:00.000Z', 'crawler', 'signup', { bot: true, reason: 'agent' }),
    event('2026-10-22T11:30:00.000Z', null, 'signup'),
  ],
  [event('2026-10-23T08:00:00.000Z', 'ann', 'signup', { props: { plan: 'pro' } }), event('2026-10-23T08:10:00.000Z', 'cat', 'download-cv')],
];

const TRUTH = {
  conversions: { signup: 3, cv: 1, pricing: 2 },
  people_all_time: { signup: 2, cv: 1, pricing: 1 },
};

const deps = (store: Store, clock = fixedClock(NOW)) => ({ store, clock, rules: scanRules(10, 60), lateDays: 7, goals: GOALS });

/** What the card answers of goals and events, read as it reads them: the week's rollups and each goal's summary. */
async function card(store: Store) {
  const days = ['2026-10-17', '2026-10-18', '2026-10-19', '2026-10-20', '2026-10-21', '2026-10-22', '2026-10-23'];
  const rules = { steps: funnelStepsSetting.parse('landing=/|pricing=/pricing|signed=event:signup'), goals: GOALS };
  const period = periodOf((await store.rollupReader.onDays(days)).values(), rules);
  const summaries = new Map<string, GoalSummary | null>();
  for (const goal of GOALS) summaries.set(goal.name, (await store.goals.summaries.read(goal.name))?.doc ?? null);
  return {
    goals: goalsOf(GOALS, period, summaries),
    events: eventsOf(period),
    page_loads: period.page_loads,
    path: funnelOf(period, rules.steps),
  };
}

async function kept(twice = false) {
  const store = memoryStore();
  const clock = fixedClock(NOW);
  let serial = 0;
  for (const hits of TRAFFIC) {
    const id = `00000000-0000-4000-8000-${String((serial += 1)).padStart(12, '0')}`;
    await keepHits(store, clock, hits, id);
    if (twice) await keepHits(store, clock, hits, id);
  }
  return { store, clock };
}

describe('goals: their conversions by day and the people who ever reached them, each once', () => {
  it('equal the truth of a known traffic, on the card and in each goal’s summary', async () => {
    const { store } = await kept();
    expect(await fold(deps(store))).toMatchObject({ ok: true, behind: null });
    const answer = await card(store);
    expect(answer.goals).toEqual(
      GOALS.map((goal) => ({
        goal: goal.name,
        conversions: TRUTH.conversions[goal.name as keyof typeof TRUTH.conversions],
        rate: expect.any(Number),
        people_all_time: TRUTH.people_all_time[goal.name as keyof typeof TRUTH.people_all_time],
        first_touch: expect.any(Object),
      })),
    );
    // Every person came in typed first: all of them and all their conversions (the week is all of time) are under it.
    for (const row of answer.goals) {
      const sum = (list: Array<{ people: number; conversions: number }>, field: 'people' | 'conversions') =>
        list.reduce((total, one) => total + one[field], 0);
      expect(sum(row.first_touch.sources, 'people'), row.goal).toBe(row.people_all_time);
      expect(sum(row.first_touch.sources, 'conversions'), row.goal).toBe(row.conversions);
      expect(
        Object.values(row.first_touch.days_to_convert).reduce((a, b) => a + b, 0),
        row.goal,
      ).toBe(row.people_all_time);
    }
    // By day: the 21st has ann's signup and bob's pricing, the 22nd bob's both, the 23rd ann's signup and cat's CV.
    const rollups = await store.rollupReader.onDays(['2026-10-21', '2026-10-22', '2026-10-23']);
    expect([...rollups.values()].map((rollup) => rollup.goals)).toEqual([
      { signup: 1, pricing: 1 },
      { signup: 1, pricing: 1 },
      { signup: 1, cv: 1 },
    ]);
    expect(answer.events).toEqual([
      {
        event: 'signup',
        count: 3,
        visitor_days: 3,
        props: {
          plan: [
            { value: 'pro', count: 2 },
            { value: 'free', count: 1 },
          ],
        },
      },
      { event: 'download-cv', count: 1, visitor_days: 1, props: {} },
    ]);
    // An event is a request of its visitor-day, never a page load; a step may name an event.
    expect(answer.page_loads).toBe(0);
    expect(answer.path.find((step) => step.step === 'signed')?.visitor_days).toBe(3);
    expect((await store.goals.summaries.read('signup'))!.doc.first_day).toBe('2026-10-21');
  });

  it('are the same with every message delivered twice and a fold that dies after each of its writes', async () => {
    const clean = await kept();
    await fold(deps(clean.store));
    const expected = await card(clean.store);
    const counting = failingAfter((await kept()).store, Number.POSITIVE_INFINITY);
    await fold(deps(counting));
    for (let failAfter = 1; failAfter <= counting.writes(); failAfter += 1) {
      const run = await kept(true);
      await fold(deps(failingAfter(run.store, failAfter), run.clock));
      run.clock.advance(TIMER_FOLD_BUDGET.leaseSeconds * 1000);
      expect(await fold(deps(run.store, run.clock))).toMatchObject({ ok: true, behind: null });
      const answer = await card(run.store);
      expect(answer.goals, `after write ${failAfter}`).toEqual(expected.goals);
      expect(answer.events, `after write ${failAfter}`).toEqual(expected.events);
    }
  });
});

describe('a goal added later', () => {
  it('counts its people from the facts still kept, and its conversions from the days folded before it', async () => {
    const { store, clock } = await kept();
    // Folded with no goals: the facts are read, and the rollups know the events and paths.
    expect(await fold({ ...deps(store, clock), goals: [] })).toMatchObject({ ok: true, behind: null });
    clock.advance(60_000);
    // GOALS set now: the next runs build each goal from the facts kept before, a slice at a time.
    const small = { ...TIMER_FOLD_BUDGET, factsASlice: 1 };
    for (let run = 0; run < 10; run += 1) {
      const outcome = await fold({ ...deps(store, clock), budget: small });
      clock.advance(60_000);
      if (outcome.ok && outcome.behind === null && (await store.foldState.read())!.doc.goal_builds?.signup === undefined) break;
    }
    const answer = await card(store);
    expect(answer.goals.map(({ goal, conversions, people_all_time }) => ({ goal, conversions, people_all_time }))).toEqual(
      GOALS.map((goal) => ({
        goal: goal.name,
        conversions: TRUTH.conversions[goal.name as keyof typeof TRUTH.conversions],
        people_all_time: TRUTH.people_all_time[goal.name as keyof typeof TRUTH.people_all_time],
      })),
    );
    expect((await store.foldState.read())!.doc.goal_builds).toEqual({});
    // New facts after it was added count once more only for new people: ann again changes nothing, dan is new.
    await keepHits(store, clock, [event('2026-10-23T19:00:00.000Z', 'ann', 'signup'), event('2026-10-23T19:01:00.000Z', 'dan', 'signup')]);
    await fold(deps(store, clock));
    expect((await store.goals.summaries.read('signup'))?.doc.people_all_time).toBe(3);
  });
});

describe('props never carry a person', () => {
  it('refuses an email address, an IP address or a run of six digits, and takes the rest', () => {
    for (const value of [
      'jo@example.com',
      'mail me at jo.doe@mail.example.org',
      '203.0.113.7',
      'from 2001:db8::1 today',
      '0612345678',
      'order 123456',
    ])
      expect(propProblem(value), value).not.toBeNull();
    for (const value of ['pro', 'example.com', 'cafe.de', 'v1.2.3', '/files/cv-2026.pdf', '12345'])
      expect(propProblem(value), value).toBeNull();
    const refused = propsSchema.safeParse({ plan: 'pro', email: 'jo@example.com' });
    expect(refused.success).toBe(false);
    expect(refused.error!.issues[0]!.path).toEqual(['email']);
    expect(propsSchema.safeParse({ a: '1', b: '2', c: '3', d: '4', e: '5', f: '6' }).success).toBe(false);
  });

  it('reads GOALS as named events or paths, and refuses a malformed one naming it', () => {
    expect(GOALS).toEqual([
      { name: 'signup', events: ['signup'], paths: [] },
      { name: 'cv', events: ['download-cv'], paths: [] },
      { name: 'pricing', events: [], paths: ['/pricing', '/pricing/'] },
    ]);
    const problems = (value: string) => goalsSetting.safeParse(value).error?.issues.map((issue) => issue.message) ?? [];
    expect(problems('a=event:x|a=event:y')).toEqual(['goal a is named twice']);
    expect(problems('a=path:pricing')[0]).toContain('must be a path');
    expect(problems('a=click:x')[0]).toContain('must be name=event:name or name=path:');
    expect(hex('x')).toHaveLength(32);
  });
});
