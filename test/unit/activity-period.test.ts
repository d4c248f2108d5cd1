import { describe, expect, it } from 'vitest';
import { memoryStore } from '../../adapters/memory/store';
import { addDays, daysEnding } from '../../shared/core/days';
import { fixedClock } from '../../shared/core/ports/clock';
import { cardOf } from '../support/card';
import { foldOnce, keepHits, queuedHit } from '../support/counting';

const TODAY = '2026-10-23';
const clock = fixedClock(`${TODAY}T20:00:00.000Z`);

/**
 * Ten days of a small site: on each day d (0 = ten days ago), people 0…9+d read `/`, the even ones go on to /about
 * from LinkedIn, and person 0 is back every day; a scanner probes /wp-login.php. So the people of any window are known.
 */
async function site(earlier?: string) {
  const store = memoryStore();
  // One person long before, so a range past 400 days holds data from its first day.
  if (earlier !== undefined) {
    const then = fixedClock(`${earlier}T20:00:00.000Z`);
    await keepHits(store, then, [queuedHit(`${earlier}T10:00:00.000Z`, { person: 'early', path: '/', page_load: true })]);
    await foldOnce(store, then);
  }
  for (let d = 0; d < 10; d += 1) {
    const day = addDays(TODAY, d - 9);
    const hits = Array.from({ length: 10 + d }, (_, person) => [
      queuedHit(`${day}T10:${String(person).padStart(2, '0')}:00.000Z`, { person: `p${person}`, path: '/', page_load: true }),
      ...(person % 2 === 0
        ? [
            queuedHit(`${day}T11:${String(person).padStart(2, '0')}:00.000Z`, {
              person: `p${person}`,
              path: '/about',
              page_load: true,
              source: 'www.linkedin.com',
            }),
          ]
        : []),
    ]).flat();
    await keepHits(store, clock, [...hits, queuedHit(`${day}T12:00:00.000Z`, { person: 'bot', path: '/wp-login.php', bot: true })]);
  }
  await foldOnce(store, clock);
  return cardOf(store, clock);
}

/** A page no visit sent an engagement from. */
const UNTIMED = { time_on_page: null, scroll_depth: null };

describe('the period report over any period, from the day rollups', () => {
  it('answers the last N days, every day kept, or a range, each with its people once and the period before', async () => {
    const read = await site();
    const week = await read('days=7');
    expect(week.body).toMatchObject({ days: 7, from: '2026-10-17', to: TODAY });
    // The last 7 days hold people 0…18 (day 9 has 19 people): each once, though most came on several days.
    expect(week.body.people_in_period).toEqual({ estimate: 19, error: 0.02, complete: true });
    expect(week.body.headline).toEqual({
      people: 19,
      people_new: 1 + 1 + 1 + 1 + 1 + 1 + 1,
      // Returning: each who came on a day after their first; all but person 18, first counted today.
      returning: 19 - 1,
      visits: 13 + 14 + 15 + 16 + 17 + 18 + 19,
      page_loads: expect.any(Number),
      conversions: 0,
      views_per_visit: expect.any(Number),
      bounce_rate: expect.any(Number),
      visit_duration: expect.any(Number),
    });
    // Each day's people's page loads add up to the period's; the period before comes day by day too, for its chart.
    const sum = (days: { page_loads: number }[]) => days.reduce((total, day) => total + day.page_loads, 0);
    expect(sum(week.body.by_day)).toBe(week.body.headline.page_loads);
    expect(week.body.previous).toMatchObject({ from: '2026-10-10', to: '2026-10-16', people: 12, visits: 10 + 11 + 12 });
    expect(week.body.previous.by_day.map((day: { day: string }) => day.day)).toEqual(daysEnding('2026-10-16', 7));
    expect(week.body.previous.by_day.map((day: { people: number }) => day.people)).toEqual([0, 0, 0, 0, 10, 11, 12]);
    expect(sum(week.body.previous.by_day)).toBe(week.body.previous.page_loads);
    expect(week.body.pages).toEqual([
      { path: '/', page_loads: 13 + 14 + 15 + 16 + 17 + 18 + 19, people: 13 + 14 + 15 + 16 + 17 + 18 + 19, ...UNTIMED },
      { path: '/about', page_loads: 7 + 7 + 8 + 8 + 9 + 9 + 10, people: 7 + 7 + 8 + 8 + 9 + 9 + 10, ...UNTIMED },
    ]);
    expect(week.body.entry_pages).toEqual([{ path: '/', people: 13 + 14 + 15 + 16 + 17 + 18 + 19 }]);
    expect(week.body.referrers).toEqual([{ host: 'www.linkedin.com', page_loads: 58, people: 58 }]);
    expect(week.body.by_day.map((day: { scanners: number }) => day.scanners)).toEqual([1, 1, 1, 1, 1, 1, 1]);
    expect(week.body.rollups).toEqual({ complete: true, built_back_to: null });

    const all = await read('days=all');
    expect(all.body).toMatchObject({ days: 10, from: '2026-10-14', to: TODAY, previous: null });
    expect(all.body.people_in_period.estimate).toBe(19);

    const range = await read('from=2026-10-14&to=2026-10-15');
    expect(range.body).toMatchObject({ days: 2, from: '2026-10-14', to: '2026-10-15' });
    expect(range.body.people_in_period.estimate).toBe(11);
    expect(range.body.previous).toMatchObject({ from: '2026-10-12', to: '2026-10-13', people: 0, visits: 0 });
  });

  it('answers a period past 400 days by month, from the first day that can hold data', async () => {
    const read = await site('2025-03-02');
    const long = await read('from=2025-01-01&to=2026-10-23');
    expect(long.body.clamped).toEqual({ asked_from: '2025-01-01', asked_to: '2026-10-23' });
    expect(long.body.by_day).toBeNull();
    expect(long.body.by_month).toHaveLength(20);
    expect(long.body.by_month[0]).toMatchObject({ month: '2025-03', people: 1 });
    expect(long.body.by_month.at(-1)).toMatchObject({
      month: '2026-10',
      people: 10 + 11 + 12 + 13 + 14 + 15 + 16 + 17 + 18 + 19,
      scanners: 10,
    });
  });

  it('clamps a range past 400 days to the days kept, and says so', async () => {
    const read = await site();
    const long = await read('from=2025-01-01&to=2026-10-23');
    expect(long.body.clamped).toEqual({ asked_from: '2025-01-01', asked_to: '2026-10-23' });
    expect(long.body.by_day.map((day: { day: string }) => day.day)).toEqual(daysEnding(TODAY, 10));
  });

  it('refuses a period it cannot read, naming the field', async () => {
    const read = await site();
    for (const [query, field] of [
      ['days=0', 'days'],
      ['days=401', 'days'],
      ['days=some', 'days'],
      ['from=2026-10-01', 'to'],
      ['to=2026-10-01', 'from'],
      ['from=2026-10-05&to=2026-10-01', 'from'],
      ['from=2026-02-30&to=2026-10-01', 'from'],
      ['days=7&from=2026-10-01&to=2026-10-02', 'days'],
    ]) {
      const answer = await read(query!);
      expect(answer.status, query).toBe(400);
      expect(answer.body.error.issues[0].path, query).toBe(field);
    }
  });
});
