import { describe, expect, it } from 'vitest';
import { MEMORY_SOURCE, memoryStore } from '../../adapters/memory/store';
import type { HitsMessage, QueuedHit } from '../../shared/core/message';
import { addCapped } from '../../shared/core/counts';
import { keeper } from '../support/keeper';
import { planOf, sightingsOf } from '../../shared/keep/plan';
import { sightedRecord } from '../../shared/keep/visitor';
import { fixedClock } from '../../shared/core/ports/clock';
import { OTHER_PATHS } from '../../shared/core/store/activity';
import { FACT_TTL_SECONDS, FOLD_DAYS } from '../../shared/core/store/facts';
import { personHash, queued } from '../support/hits';

let serial = 0;
const message = (hits: QueuedHit[]): HitsMessage => ({
  v: 1,
  id: `00000000-0000-4000-8000-${String((serial += 1)).padStart(12, '0')}`,
  hits,
});

describe('a message planned', () => {
  it('makes one sighting per person hash per day by the one rule, none for the site itself, and each day its parts', () => {
    const hits = [
      queued('a', '2026-10-22T10:00:00.000Z', { subject: 'tree-1' }),
      queued('a', '2026-10-22T10:30:00.000Z', { bot: true }),
      queued('a', '2026-10-23T00:00:00.000Z', { bot: true }),
      queued('s', '2026-10-22T11:00:00.000Z', { bot: true, path: '/.env', subject: 'tree-1' }),
      queued(null, '2026-10-22T11:05:00.000Z', { path: '/health', subject: 'tree-1' }),
    ];
    const plan = planOf(hits);
    expect(Object.fromEntries(sightingsOf(hits))).toEqual({
      [personHash('a')]: [
        // The day's first people's request came with no referrer: its first touch, should this be their first day.
        { day: '2026-10-22', kind: 'people', touch: { source: 'typed', referrer: null, campaign: null } },
        { day: '2026-10-23', kind: 'scanners' },
      ],
      [personHash('s')]: [{ day: '2026-10-22', kind: 'scanners' }],
    });
    expect([...plan.days.keys()]).toEqual(['2026-10-22', '2026-10-23']);
    const [on22, on23] = [plan.days.get('2026-10-22')!, plan.days.get('2026-10-23')!];
    expect(on22.visitorDays.map((part) => [part.requests, part.bots, part.self])).toEqual([
      [2, 1, 0],
      [1, 1, 0],
      [1, 0, 1],
    ]);
    expect(on23.visitorDays.map((part) => [part.requests, part.bots])).toEqual([[1, 1]]);
    expect(on22.hours.map((part) => [part.hour, part.requests, part.paths])).toEqual([
      ['2026-10-22T10:00:00.000Z', 2, { '/': 2 }],
      ['2026-10-22T11:00:00.000Z', 2, { '/.env': 1, '/health': 1 }],
    ]);
    expect(on22.scans).toEqual([
      { subject: 'tree-1', at: '2026-10-22T10:00:00.000Z', who: 'people', identity: personHash('a') },
      { subject: 'tree-1', at: '2026-10-22T11:00:00.000Z', who: 'scanners', identity: null },
      { subject: 'tree-1', at: '2026-10-22T11:05:00.000Z', who: 'self', identity: null },
    ]);
    expect(on23.scans).toEqual([]);
  });
});

describe('a visitor record merged', () => {
  const seen = (current: Parameters<typeof sightedRecord>[0], day: string, kind: 'people' | 'scanners') =>
    sightedRecord(current, 'h', [{ day, kind }], `${day}T12:00:00.000Z`);

  it('counts each day once in whatever order the days come, and a day seen again changes nothing', () => {
    const first = seen(null, '2026-10-23', 'people')!;
    const third = seen(first, '2026-10-21', 'people')!;
    const second = seen(third, '2026-10-22', 'people')!;
    expect(second).toMatchObject({ first_seen: '2026-10-21', last_seen: '2026-10-23', days_seen: 3, counted_on: '2026-10-21' });
    expect(seen(second, '2026-10-22', 'people')).toBeNull();
    expect(seen(second, '2026-10-22', 'scanners')).toBeNull();
  });

  it('keeps the days a late sighting moved first_seen and counted_on away from, for the fold to count again', () => {
    const first = seen(null, '2026-10-23', 'people')!;
    expect(first.moved_days).toEqual([]);
    const earlier = seen(first, '2026-10-21', 'people')!;
    expect(earlier).toMatchObject({ first_seen: '2026-10-21', counted_on: '2026-10-21', moved_days: ['2026-10-23'] });
    const scanner = seen(null, '2026-10-22', 'scanners')!;
    const person = seen(scanner, '2026-10-20', 'people')!;
    expect(person).toMatchObject({ who: 'people', first_seen: '2026-10-20', counted_on: '2026-10-20', moved_days: ['2026-10-22'] });
  });

  it('moves a scanner who reads as a person to the people, on the day they read so', () => {
    const scanner = seen(null, '2026-10-21', 'scanners')!;
    expect(scanner).toMatchObject({ who: 'scanners', ttl: 7_776_000, counted_on: null });
    const person = seen(scanner, '2026-10-22', 'people')!;
    expect(person).toMatchObject({ who: 'people', ttl: -1, counted_on: '2026-10-22', days_seen: 2, first_seen: '2026-10-21' });
    // A person never goes back to being a scanner.
    expect(seen(person, '2026-10-23', 'scanners')!.who).toBe('people');
  });
});

describe('top paths', () => {
  it('are capped, the rest summed under (other), so the counts still add up', () => {
    const many = Object.fromEntries(Array.from({ length: 60 }, (_, n) => [`/p${String(n).padStart(2, '0')}`, n + 1]));
    const capped = addCapped({}, many, 10);
    expect(Object.keys(capped)).toHaveLength(10);
    expect(capped['/p59']).toBe(60);
    expect(capped[OTHER_PATHS]).toBe(Object.values(many).reduce((a, b) => a + b, 0) - (60 + 59 + 58 + 57 + 56 + 55 + 54 + 53 + 52));
    const again = addCapped(capped, { '/new': 1 }, 10);
    expect(Object.values(again).reduce((a, b) => a + b, 0)).toBe(Object.values(capped).reduce((a, b) => a + b, 0) + 1);
    expect(Object.keys(again)).toHaveLength(10);
  });
});

describe('the keeper on the memory store', () => {
  it('says its records are kept in memory and lost on restart', () => {
    expect(memoryStore().source).toBe(MEMORY_SOURCE);
    expect(MEMORY_SOURCE).toMatch(/memory.*lost on restart/);
  });

  it('writes the visitor records and one fact per day of the message, nothing else', async () => {
    const store = memoryStore();
    const keep = keeper(store, fixedClock('2026-10-23T12:00:00Z'));
    const both = message([
      queued('a', '2026-10-22T10:00:00.000Z'),
      queued('b', '2026-10-23T10:00:00.000Z'),
      queued(null, '2026-10-23T10:01:00.000Z'),
    ]);
    expect(await keep(both)).toEqual({ ok: true, hits: 3, already: false });
    const kinds = store.documents.query<{ kind: string; pk: string; id: string }>(() => true).map((doc) => `${doc.pk} ${doc.kind}`);
    expect(kinds.sort()).toEqual(['2026-10-22 fact', '2026-10-23 fact', 'visitors visitor-record', 'visitors visitor-record']);
    const facts = store.documents.query<{ kind: string; hits: number; ttl: number; id: string }>((doc) => doc.kind === 'fact');
    expect(facts.map((fact) => [fact.id, fact.hits, fact.ttl])).toEqual([
      [`fact:${both.id}`, 1, FACT_TTL_SECONDS],
      [`fact:${both.id}`, 2, FACT_TTL_SECONDS],
    ]);
  });

  it('keeps a message once however often it comes, and reads a visitor kept today no more', async () => {
    const store = memoryStore();
    const keep = keeper(store, fixedClock('2026-10-23T12:00:00Z'));
    const first = message([queued('a', '2026-10-23T10:00:00.000Z')]);
    expect(await keep(first)).toEqual({ ok: true, hits: 1, already: false });
    const kept = store.stats();
    expect(await keep(first)).toEqual({ ok: true, hits: 1, already: true });
    // The second delivery's fact create finds it there; the record is not read again, and not written.
    expect(store.stats()).toMatchObject({ reads: kept.reads, writes: kept.writes + 1, conflicts: kept.conflicts + 1 });
    const before = store.stats();
    await keep(message([queued('a', '2026-10-23T10:05:00.000Z')]));
    expect(store.stats()).toMatchObject({ reads: before.reads, writes: before.writes + 1 });
  });

  it('refuses a message with a day older than the fold reads, keeping nothing of it', async () => {
    const store = memoryStore();
    const outcome = await keeper(
      store,
      fixedClock('2026-10-23T12:00:00Z'),
    )(message([queued('a', '2026-10-23T10:00:00.000Z'), queued('b', '2026-09-01T10:00:00.000Z')]));
    expect(outcome).toEqual({ ok: false, reason: `hits of 2026-09-01 are older than the ${FOLD_DAYS} days the fold reads` });
    expect(store.documents.query(() => true)).toEqual([]);
  });
});

describe('work in turn', () => {
  it('runs one key’s work one at a time in order, other keys at once, and goes on after a failure', async () => {
    const { KeyedMutex } = await import('../../shared/core/keyed-mutex');
    const turns = new KeyedMutex();
    const log: string[] = [];
    const step =
      (name: string, fail = false) =>
      async () => {
        log.push(`${name} start`);
        await new Promise((resolve) => setTimeout(resolve, 5));
        log.push(`${name} end`);
        if (fail) throw new Error(name);
      };
    const all = Promise.allSettled([turns.run('a', step('a1', true)), turns.run('a', step('a2')), turns.run('b', step('b1'))]);
    const outcomes = await all;
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'fulfilled', 'fulfilled']);
    expect(log.indexOf('a1 end')).toBeLessThan(log.indexOf('a2 start'));
    expect(log.indexOf('b1 start')).toBeLessThan(log.indexOf('a1 end'));
  });
});
