import { describe, expect, it } from 'vitest';
import { memoryStore } from '../../adapters/memory/store';
import { fixedClock } from '../../shared/core/ports/clock';
import { IN_SITE } from '../../shared/core/store/activity';
import { touchOf } from '../../shared/keep/first';
import { cardOf } from '../support/card';
import { keepAndFold, queuedHit } from '../support/counting';

// A page load linked from the site itself (a single-page app's route change, a link within the site) keeps the
// visit's source and entry: it is neither a source of its own nor a typed page load.
const DAY = '2026-10-23';
const at = (minute: number) => `${DAY}T10:${String(minute).padStart(2, '0')}:00.000Z`;
const load = (person: string, minute: number, path: string, source: string | null) =>
  queuedHit(at(minute), { person, path, source, page_load: true });

describe('a page load from the site itself', () => {
  it('counts as a pageview, never as a source, a referrer, a typed page load or an entry', async () => {
    const store = memoryStore();
    const clock = fixedClock(`${DAY}T12:00:00.000Z`);
    await keepAndFold(store, clock, [
      load('a', 0, '/', 'www.linkedin.com'),
      load('a', 1, '/two', IN_SITE),
      load('a', 2, '/three', IN_SITE),
      load('b', 0, '/', null),
      load('b', 1, '/two', IN_SITE),
    ]);
    const card = cardOf(store, clock);
    const all = await card('days=1');
    expect(all.body.headline.page_loads).toBe(5);
    expect(all.body.sources).toMatchObject({ linkedin: 1, github: 0, search: 0, other: 0, typed: 1, other_hosts: [] });
    expect(all.body.referrers.map((row: { host: string }) => row.host)).toEqual(['www.linkedin.com']);
    expect(all.body.entry_pages.map((row: { path: string }) => row.path)).toEqual(['/']);
    // The visit from LinkedIn is not also a typed one.
    expect((await card('days=1&filter=source:typed')).body.headline.people).toBe(1);
    expect((await card('days=1&filter=source:linkedin')).body.headline.people).toBe(1);
    expect((await card('days=1&filter=referrer:(site)')).body.headline.people).toBe(0);
  });

  it("is never a person's first touch: the first page load that came from outside is", () => {
    const hop = load('a', 0, '/two', IN_SITE);
    expect(touchOf([hop, load('a', 1, '/', 'github.com')])).toEqual({ source: 'github', referrer: 'github.com', campaign: null });
    expect(touchOf([hop])).toEqual({ source: 'typed', referrer: null, campaign: null });
  });
});
