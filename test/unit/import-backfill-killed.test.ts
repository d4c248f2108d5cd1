import { describe, expect, it } from 'vitest';
import { addDays } from '../../shared/core/days';
import { fold } from '../../shared/fold/fold';
import { TIMER_FOLD_BUDGET } from '../../shared/fold/budget';
import { readMessage, type HitsMessage } from '../../shared/core/message';
import { scanRules } from '../../shared/core/subjects/scan-rule';
import { failingAfter } from '../integration/keep-helpers';
import { importRig, jsonRequest } from '../support/import-rig';
import { answerImport } from '../../host/http/ingest';
import { importKeeper } from '../support/keeper';
import { history, importLine, truthOf } from '../support/log-history';

// An import's backfill and keep-imports, each killed after any of its writes: a file of its own, so it runs beside the
// rest of the import's tests rather than after them.

const TODAY = '2026-10-23';
const NOW = `${TODAY}T12:00:00.000Z`;

describe('the backfill, killed after any write', () => {
  const requests = history({ today: TODAY, days: 120, people: 3, seed: 9 }).filter((_, index) => index % 60 === 0);
  const lines = requests.map(importLine);
  const small = { ...TIMER_FOLD_BUDGET, factsASlice: 2, recordsASlice: 3, slicesARun: 2 };
  const watermarks = [
    'folded_to',
    'folded_days',
    'days',
    'records',
    'records_at',
    'swept_at',
    'build',
    'behind',
    'imports',
    'imported',
    'people_due',
    'files_due',
  ];
  const unmarkedDocs = (rig: ReturnType<typeof importRig>) =>
    JSON.parse(
      JSON.stringify(
        rig.store.documents
          .query<Record<string, unknown>>(() => true)
          .filter((doc) => !['store-clock', 'fold-lease'].includes(String(doc.kind)))
          .sort((a, b) => (`${String(a.pk)}|${String(a.id)}` < `${String(b.pk)}|${String(b.id)}` ? -1 : 1)),
        (key, value: unknown) => (watermarks.includes(key) ? undefined : value),
      ),
    ) as unknown;
  const imported = async (rig: ReturnType<typeof importRig>) => {
    for (let at = 0; at < lines.length; at += 25)
      await answerImport(jsonRequest(JSON.stringify({ hits: lines.slice(at, at + 25) })), rig.deps);
    await rig.keepQueued();
  };
  const drain = async (rig: ReturnType<typeof importRig>) => {
    for (let run = 0; run < 60; run += 1) {
      const outcome = await fold({ store: rig.store, clock: rig.clock, rules: scanRules(10, 60), lateDays: 7, budget: small });
      rig.clock.advance(TIMER_FOLD_BUDGET.leaseSeconds * 1000);
      if (outcome.ok && outcome.behind === null && (await rig.store.foldState.read())?.doc.imported.length === 0) return;
    }
    throw new Error('the fold never caught up');
  };

  it('folds again from its watermarks and leaves what a clean run leaves', async () => {
    const clean = importRig(NOW);
    await imported(clean);
    const counting = failingAfter(clean.store, Number.POSITIVE_INFINITY);
    await fold({ store: counting, clock: clean.clock, rules: scanRules(10, 60), lateDays: 7, budget: small });
    const writes = counting.writes();
    clean.clock.advance(TIMER_FOLD_BUDGET.leaseSeconds * 1000);
    await drain(clean);
    const expected = unmarkedDocs(clean);
    const truth = truthOf(requests, addDays(TODAY, -1));
    expect((await clean.store.visitorsSummary.read())?.doc).toMatchObject({
      people_all_time: truth.people,
      scanners_left_out: truth.scanners,
    });
    expect(writes).toBeGreaterThan(10);
    // Every run starts from the same imported state: imported once, then copied for each run.
    const before = importRig(NOW);
    await imported(before);
    for (let failAfter = 1; failAfter <= writes; failAfter += 1) {
      const run = importRig(NOW, before.store.documents.copy());
      await fold({ store: failingAfter(run.store, failAfter), clock: run.clock, rules: scanRules(10, 60), lateDays: 7, budget: small });
      run.clock.advance(TIMER_FOLD_BUDGET.leaseSeconds * 1000);
      await drain(run);
      expect(unmarkedDocs(run), `killed after write ${failAfter}`).toEqual(expected);
    }
  }, 300_000);

  it('keep-imports killed after any of its writes, then the message again, keeps what one delivery keeps', async () => {
    const clean = importRig(NOW);
    await answerImport(jsonRequest(JSON.stringify({ hits: lines })), clean.deps);
    const messages = [...clean.queued];
    await clean.keepQueued();
    await drain(clean);
    const expected = unmarkedDocs(clean);
    for (let failAfter = 1; failAfter <= 12; failAfter += 1) {
      const run = importRig(NOW);
      // The endpoint's part (its ledger, the same messages), then keep-imports dying after one write and the message again.
      await answerImport(jsonRequest(JSON.stringify({ hits: lines })), run.deps);
      expect(run.queued.splice(0)).toEqual(messages);
      const dying = importKeeper(failingAfter(run.store, failAfter), run.clock);
      const keep = importKeeper(run.store, run.clock);
      for (const text of messages) {
        const message = (readMessage(text) as { ok: true; message: HitsMessage }).message;
        await dying(message);
        expect((await keep(message)).ok).toBe(true);
      }
      await drain(run);
      expect(unmarkedDocs(run), `killed after write ${failAfter}`).toEqual(expected);
    }
  });
});
