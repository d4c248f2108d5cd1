import { describe, expect, it } from 'vitest';
import { memoryStore } from '../../adapters/memory/store';
import { fixedClock } from '../../shared/core/ports/clock';
import type { QueuedHit } from '../../shared/core/message';
import type { VisitorDay } from '../../shared/core/store/activity';
import { foldOnce, keepHits, queuedHit } from '../support/counting';
import { cardOf } from '../support/card';
import { TIMED_FIGURES, TIMED_MAPS } from '../../shared/core/store/rollups';

const NOW = '2026-10-23T18:00:00.000Z';

const load = (at: string, person: string, path: string): QueuedHit => queuedHit(at, { person, path, page_load: true });
const engaged = (at: string, person: string, path: string, ms: number, scroll: number): QueuedHit => ({
  ...queuedHit(at, { person, path, page_load: false }),
  engagement: { ms, scroll },
});

function rig() {
  const store = memoryStore();
  const clock = fixedClock(NOW);
  let serial = 0;
  const nextId = () => `00000000-0000-4000-8000-${String((serial += 1)).padStart(12, '0')}`;
  return {
    store,
    keep: (hits: QueuedHit[]) => keepHits(store, clock, hits, nextId()),
    fold: () => foldOnce(store, clock),
    card: cardOf(store, clock),
    days: () => store.documents.query<VisitorDay>((doc) => doc.kind === 'visitor-day'),
  };
}

describe('time on site: kept, folded and read', () => {
  it('keeps engaged time, each page’s time and deepest scroll and the exit page, and never counts an engagement as a request', async () => {
    const r = rig();
    await r.keep([load('2026-10-23T10:00:00.000Z', 'a', '/'), load('2026-10-23T10:05:00.000Z', 'a', '/about')]);
    await r.fold();
    await r.keep([
      engaged('2026-10-23T10:00:00.000Z', 'a', '/', 20_000, 40),
      engaged('2026-10-23T10:05:00.000Z', 'a', '/about', 5_000, 90),
    ]);
    await r.keep([engaged('2026-10-23T10:00:00.000Z', 'a', '/', 10_000, 30)]);
    await r.fold();
    const [day] = r.days();
    expect(day).toMatchObject({
      requests: 2,
      page_loads: 2,
      engaged_ms: 35_000,
      page_ms: { '/': 30_000, '/about': 5_000 },
      page_scroll: { '/': 40, '/about': 90 },
      exit: '/about',
      exit_at: '2026-10-23T10:05:00.000Z',
      last_seen: '2026-10-23T10:05:00.000Z',
    });
    const hours = r.store.documents.query<{ kind: string; requests: number }>((doc) => doc.kind === 'activity-hour');
    expect(hours.reduce((sum, hour) => sum + hour.requests, 0)).toBe(2);
  });

  it('drops an engagement whose visit was never kept: no visitor-day, no visit, no person', async () => {
    const r = rig();
    await r.keep([engaged('2026-10-23T10:00:00.000Z', 'ghost', '/', 20_000, 40)]);
    const outcome = await r.fold();
    expect(outcome.dropped).toBe(1);
    expect(r.days()).toEqual([]);
    const { body } = await r.card('days=1');
    expect(body.headline).toMatchObject({ visits: 0, people: 0, visit_duration: null, bounce_rate: null, views_per_visit: null });
  });

  it('adds a message delivered twice once', async () => {
    const r = rig();
    await r.keep([load('2026-10-23T10:00:00.000Z', 'a', '/')]);
    const twice = [engaged('2026-10-23T10:00:00.000Z', 'a', '/', 20_000, 40)];
    await keepHits(r.store, fixedClock(NOW), twice, '00000000-0000-4000-8000-0000000000aa');
    await keepHits(r.store, fixedClock(NOW), twice, '00000000-0000-4000-8000-0000000000aa');
    await r.fold();
    expect(r.days()[0]).toMatchObject({ engaged_ms: 20_000, page_ms: { '/': 20_000 } });
  });

  it('answers the figures with the period before, a page’s time and scroll, and exit pages', async () => {
    const r = rig();
    await r.keep([
      // a: two pages, engaged 30 s on / and 10 s on /about; exits on /about.
      load('2026-10-23T10:00:00.000Z', 'a', '/'),
      load('2026-10-23T10:05:00.000Z', 'a', '/about'),
      // b: one page, no engagement, an event: no bounce, a span of 2 minutes.
      load('2026-10-23T11:00:00.000Z', 'b', '/'),
      { ...queuedHit('2026-10-23T11:02:00.000Z', { person: 'b', path: '/' }), event: 'signup' },
      // c: one page and nothing else: a bounce of 0 s.
      load('2026-10-23T12:00:00.000Z', 'c', '/pricing'),
      // d, the day before: one page, engaged 8 s.
      load('2026-10-22T09:00:00.000Z', 'd', '/'),
    ]);
    await r.fold();
    await r.keep([
      engaged('2026-10-23T10:00:00.000Z', 'a', '/', 30_000, 50),
      engaged('2026-10-23T10:05:00.000Z', 'a', '/about', 10_000, 100),
      engaged('2026-10-22T09:00:00.000Z', 'd', '/', 8_000, 20),
    ]);
    await r.fold();
    const { body } = await r.card('days=1');
    // Visits: a 40 s, b 120 s, c 0 s; page loads 4 over 3 visits; c bounced.
    expect(body.headline).toMatchObject({ visits: 3, page_loads: 4, views_per_visit: 1.33, bounce_rate: 33.3, visit_duration: 53 });
    expect(body.headline).not.toHaveProperty('time_on_site_from');
    expect(body.previous).toMatchObject({ visits: 1, views_per_visit: 1, bounce_rate: 100, visit_duration: 8 });
    expect(body.pages).toEqual(
      expect.arrayContaining([
        { path: '/', page_loads: 2, people: 2, time_on_page: 30, scroll_depth: 50 },
        { path: '/about', page_loads: 1, people: 1, time_on_page: 10, scroll_depth: 100 },
        { path: '/pricing', page_loads: 1, people: 1, time_on_page: null, scroll_depth: null },
      ]),
    );
    expect(body.exit_pages).toEqual([
      { path: '/', people: 1 },
      { path: '/about', people: 1 },
      { path: '/pricing', people: 1 },
    ]);
    const filtered = (await r.card('days=1&filter=page:/about')).body;
    expect(filtered.headline).toMatchObject({ visits: 1, views_per_visit: 2, bounce_rate: 0, visit_duration: 40 });
    const several = (await r.card('days=1&filter=page:/&filter=!page:/pricing')).body;
    expect(several.headline).toMatchObject({ visits: 2, views_per_visit: 1.5, bounce_rate: 0, visit_duration: 80 });
  });

  it('leaves a rollup folded before it without it, and counts the figures from the first day that holds them', async () => {
    const r = rig();
    await r.keep([load('2026-10-22T09:00:00.000Z', 'd', '/')]);
    await r.fold();
    // As the version before time on site left them: day and period rollups without its fields.
    for (const { pk, id } of r.store.documents.query<{ kind: string; pk: string; id: string }>(
      (doc) => doc.kind === 'day-rollup' || doc.kind === 'period-rollup',
    )) {
      const read = r.store.documents.read<Record<string, unknown>>(pk, id)!;
      const old = { ...read.doc };
      for (const field of [...TIMED_FIGURES, ...TIMED_MAPS]) delete old[field];
      expect(r.store.documents.replace(old as never, read.etag)).toBe('replaced');
    }
    await r.keep([load('2026-10-22T09:30:00.000Z', 'e', '/'), load('2026-10-23T10:00:00.000Z', 'a', '/')]);
    await r.keep([engaged('2026-10-23T10:00:00.000Z', 'a', '/', 12_000, 10)]);
    await r.fold();
    const dayBefore = r.store.documents.read<Record<string, unknown>>('2026-10-22', 'day-rollup')!.doc;
    expect(dayBefore).not.toHaveProperty('bounces');
    expect(dayBefore).not.toHaveProperty('exit_pages');
    const { body } = await r.card('days=2');
    expect(body.headline).toMatchObject({
      visits: 3,
      views_per_visit: 1,
      bounce_rate: 100,
      visit_duration: 12,
      time_on_site_from: '2026-10-23',
    });
    const before = (await r.card('from=2026-10-22&to=2026-10-22')).body;
    expect(before.headline).toMatchObject({ visits: 2, views_per_visit: null, bounce_rate: null, visit_duration: null });
    expect(before.headline).not.toHaveProperty('time_on_site_from');
  });
});
