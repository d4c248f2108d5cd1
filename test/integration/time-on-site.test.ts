import { describe, expect, it } from 'vitest';
import { fold } from '../../shared/fold/fold';
import { TIMER_FOLD_BUDGET } from '../../shared/fold/budget';
import { keeper } from '../support/keeper';
import { fixedClock } from '../../shared/core/ports/clock';
import type { Store } from '../../shared/core/store';
import type { QueuedHit } from '../../shared/core/message';
import type { VisitorDay } from '../../shared/core/store/activity';
import { scanRules } from '../../shared/core/subjects/scan-rule';
import { queued } from '../support/hits';
import { settle } from '../support/host';
import { cardOf } from '../support/card';
import { failingAfter, freshCosmos, messageOf, SETTLE_SECONDS } from './keep-helpers';

// Time on site on the local Cosmos server: an engagement joins the visit of its page load, once however often its
// message comes, a fold that dies after any write adds it once, and one with no visit to join is dropped.

const NOW = '2026-10-23T20:00:00Z';
const foldWith = (store: Store, at = NOW) => fold({ store, clock: fixedClock(at), rules: scanRules(10, 60), lateDays: 7 });
const engaged = (person: string, at: string, path: string, ms: number, scroll: number): QueuedHit =>
  queued(person, at, { path, engagement: { ms, scroll } });

const loads = messageOf([
  queued('ann', '2026-10-23T10:00:00.000Z', { path: '/', page_load: true }),
  queued('ann', '2026-10-23T10:04:00.000Z', { path: '/about', page_load: true }),
  queued('bob', '2026-10-23T11:00:00.000Z', { path: '/', page_load: true }),
  queued('bob', '2026-10-23T11:01:30.000Z', { path: '/api/list' }),
]);
const engagements = messageOf([
  engaged('ann', '2026-10-23T10:00:00.000Z', '/', 30_000, 60),
  engaged('ann', '2026-10-23T10:04:00.000Z', '/about', 12_000, 100),
  // Cid's page load was never kept: the engagement is dropped.
  engaged('cid', '2026-10-23T12:00:00.000Z', '/', 9_000, 10),
]);

describe('time on site through the local Cosmos server', { timeout: 120_000 }, () => {
  it('joins each engagement to its visit once, through a duplicate delivery and a fold that dies after a write, and drops one with no visit', async () => {
    const run = await freshCosmos();
    const keep = keeper(run.store, fixedClock(NOW));
    expect((await keep(loads)).ok).toBe(true);
    await settle(SETTLE_SECONDS);
    expect(await foldWith(run.store)).toMatchObject({ ok: true, dropped: 0 });
    expect((await keep(engagements)).ok).toBe(true);
    expect(await keep(engagements)).toMatchObject({ ok: true, already: true });
    await settle(SETTLE_SECONDS);
    // The fold dies after its first write; the next run, once the lease lapses, finishes the slice without adding twice.
    await fold({ store: failingAfter(run.store, 1), clock: fixedClock(NOW), rules: scanRules(10, 60), lateDays: 7 });
    const later = new Date(Date.parse(NOW) + TIMER_FOLD_BUDGET.leaseSeconds * 1000).toISOString();
    expect(await foldWith(run.store, later)).toMatchObject({ ok: true });
    const days = await run.documents.query<VisitorDay>("SELECT * FROM c WHERE c.kind = 'visitor-day'", [], '2026-10-23');
    expect(days).toHaveLength(2);
    expect(days.find((doc) => doc.engaged_ms !== undefined)).toMatchObject({
      requests: 2,
      engaged_ms: 42_000,
      page_ms: { '/': 30_000, '/about': 12_000 },
      page_scroll: { '/': 60, '/about': 100 },
      exit: '/about',
    });
    const { body } = await cardOf(run.store, fixedClock(later))('from=2026-10-23&to=2026-10-23');
    // Ann 42 s engaged over two pages; Bob sent no engagement, so his visit lasts from his page load to his request 90 s
    // later, and with one page load and no event it bounced.
    expect(body.headline).toMatchObject({ visits: 2, page_loads: 3, views_per_visit: 1.5, bounce_rate: 50, visit_duration: 66 });
    expect(body.pages).toEqual(
      expect.arrayContaining([
        { path: '/', page_loads: 2, people: 2, time_on_page: 30, scroll_depth: 60 },
        { path: '/about', page_loads: 1, people: 1, time_on_page: 12, scroll_depth: 100 },
      ]),
    );
    expect(body.exit_pages).toEqual([
      { path: '/', people: 1 },
      { path: '/about', people: 1 },
    ]);
    const filtered = (await cardOf(run.store, fixedClock(later))('from=2026-10-23&to=2026-10-23&filter=page:/about')).body;
    expect(filtered.headline).toMatchObject({ visits: 1, views_per_visit: 2, bounce_rate: 0, visit_duration: 42 });
  });
});
