import { performance } from 'node:perf_hooks';
import { memoryStore } from '../adapters/memory/store';
import { addDays } from '../shared/core/days';
import { fixedClock } from '../shared/core/ports/clock';
import { utcDay } from '../shared/core/identity/tokens';
import { scanRules } from '../shared/core/subjects/scan-rule';
import { fold } from '../shared/fold/fold';
import { queued } from '../test/support/hits';
import { keepHits } from '../test/support/counting';
import { bulkUpsert, freshLocalStore } from './local-store';
import { fmt } from './report';

/** `npm run bench fold` (part `goalback`): 400 days of visitor-days kept and folded with no goal, then a goal added. */
export const GOAL_BACK_DAYS = Number(process.env.GOAL_BACK_DAYS ?? 400);
const PEOPLE_A_DAY = Number(process.env.GOAL_BACK_PEOPLE ?? 40);

/** The memory store's own clock, the facts already folded, and its lease, held until late today by its clock. */
const LEFT_BEHIND = new Set(['store-clock', 'fact', 'fold-lease']);

/** The goal the child folds: its pages, and the migration that counts it back. */
export const BENCH_GOAL = { name: 'pricing', events: [], paths: ['/pricing/*'], back: 'goal-back:pricing:bench' };

/**
 * Each day, PEOPLE_A_DAY people: every third reads a pricing page, so the truth is known. Kept and folded a day at a
 * time in memory (the fold's clock on that day), then every document but those LEFT_BEHIND written to the local server in bulk.
 */
export async function goalBackDays(endpoint: string) {
  const began = performance.now();
  const memory = memoryStore();
  const today = utcDay(new Date());
  const first = addDays(today, 1 - GOAL_BACK_DAYS);
  let reaching = 0;
  for (let n = 0; n < GOAL_BACK_DAYS; n += 1) {
    const day = addDays(first, n);
    const hits = Array.from({ length: PEOPLE_A_DAY }, (_, p) =>
      queued(`p${p}-${n % 30}`, `${day}T10:${String(p % 60).padStart(2, '0')}:00.000Z`, {
        path: p % 3 === 0 ? `/pricing/plan-${p % 4}` : `/blog/post-${p % 7}`,
      }),
    );
    reaching += Math.ceil(PEOPLE_A_DAY / 3);
    await keepHits(memory, fixedClock(`${day}T12:00:00.000Z`), hits);
    const folded = await fold({ store: memory, clock: fixedClock(`${day}T23:00:00.000Z`), rules: scanRules(10, 60), lateDays: 7 });
    if (!folded.ok) throw new Error(`day ${day} could not be folded: ${folded.reason}`);
  }
  const { container } = await freshLocalStore(endpoint, { prefix: 'goalback' });
  const docs = memory.documents.query<{ id: string; pk: string; kind: string }>((doc) => !LEFT_BEHIND.has(doc.kind));
  await bulkUpsert(container, docs);
  console.log(
    `goal counted back: ${fmt(GOAL_BACK_DAYS)} days of ${fmt(PEOPLE_A_DAY)} people kept and folded with no goal (${fmt(docs.length)} documents) ` +
      `in ${fmt((performance.now() - began) / 1000)} s; ${fmt(reaching)} visitor-days reach the goal`,
  );
  return { database: container.database.id, reaching };
}
