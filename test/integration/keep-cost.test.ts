import { describe, expect, it } from 'vitest';
import { syntheticMessages } from '../support/hits';
import { fold } from '../../shared/fold/fold';
import { keeper } from '../support/keeper';
import { scanRules } from '../../shared/core/subjects/scan-rule';
import { settle } from '../support/host';
import { fixedClock } from '../../shared/core/ports/clock';
import type { VisitorRecord } from '../../shared/core/store';
import { everything, freshCosmos, SETTLE_SECONDS, unmarked } from './keep-helpers';

describe('what keeping costs the store', () => {
  it('1,000 hits from 50 visitors over 2 days: at most one record write per visitor per day, and the reads and writes per hit', async () => {
    const { store, documents } = await freshCosmos();
    // The record writes that landed, by visitor and day (a write that found the record changed first landed nothing).
    const recordWrites = new Map<string, number>();
    const counted = async (record: VisitorRecord, write: Promise<string>) => {
      const outcome = await write;
      const key = `${record.id} ${record.last_seen}`;
      if (outcome === 'created' || outcome === 'replaced') recordWrites.set(key, (recordWrites.get(key) ?? 0) + 1);
      return outcome;
    };
    const watched = {
      ...store,
      records: {
        ...store.records,
        create: (record: VisitorRecord) => counted(record, store.records.create(record)) as ReturnType<typeof store.records.create>,
        replace: (record: VisitorRecord, etag: string) =>
          counted(record, store.records.replace(record, etag)) as ReturnType<typeof store.records.replace>,
      },
    };
    const clock = fixedClock('2026-10-23T23:59:00Z');
    const keep = keeper(watched, clock);
    const messages = syntheticMessages(1000, 50, 2);
    // As one host instance runs them: a batch of messages at a time, in parallel.
    for (let first = 0; first < messages.length; first += 16) {
      const outcomes = await Promise.all(messages.slice(first, first + 16).map((message) => keep(message)));
      expect(outcomes.every((outcome) => outcome.ok)).toBe(true);
    }
    const cost = store.stats();
    console.log(
      `keeping 1,000 hits (50 visitors, 2 days, ${messages.length} messages): ${cost.reads} reads, ${cost.writes} writes, ${cost.queries} queries, ` +
        `${(cost.reads / 1000).toFixed(3)} reads and ${(cost.writes / 1000).toFixed(3)} writes per hit; record writes ${[...recordWrites.values()].reduce((a, b) => a + b, 0)}`,
    );
    // The keep path reads nothing but records, queries nothing, and writes one fact per message and day.
    expect(cost.queries).toBe(0);
    expect(cost.conflicts).toBe(0);
    const factsWritten = messages.reduce((sum, message) => sum + new Set(message.hits.map((hit) => hit.at.slice(0, 10))).size, 0);
    expect(cost.writes - [...recordWrites.values()].reduce((a, b) => a + b, 0)).toBe(factsWritten);
    await settle(SETTLE_SECONDS);
    expect((await fold({ store, clock, rules: scanRules(10, 60), lateDays: 7 })).ok).toBe(true);

    const kept = unmarked(await everything(documents));
    expect(kept.filter((doc) => doc.kind === 'visitor-record')).toHaveLength(50);
    expect(Math.max(...recordWrites.values())).toBe(1);
    expect([...recordWrites.values()].reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(100);
    expect(kept.filter((doc) => doc.kind === 'activity-hour').reduce((sum, doc) => sum + (doc.requests as number), 0)).toBe(1000);
    expect(kept.find((doc) => doc.kind === 'visitors-summary')).toMatchObject({ people_all_time: 40, scanners_left_out: 10 });
    expect(cost.failures).toBe(0);
    expect(kept.filter((doc) => doc.kind === 'fact')).toHaveLength(factsWritten);
  });
});
