import { utcZone } from './hit-days';
import type { memoryStore } from '../../adapters/memory/store';
import { fold, type FoldDeps } from '../../shared/fold/fold';
import { type FoldBudget } from '../../shared/fold/budget';
import type { QueuedHit } from '../../shared/core/message';
import { testAccess } from './access';
import type { IncomingRequest } from '../../host/http/request';
import type { Clock, fixedClock } from '../../shared/core/ports/clock';
import { memoryLogger } from '../../shared/core/ports/logger';
import { retentionCard } from '../../shared/read/retention';
import { retentionQuerySchema } from '../../shared/contract/queries';
import { query as readQuery } from '../../host/http/input';
import { operatorRead } from '../../host/http/route';
import type { Store } from '../../shared/core/store';
import { failingAfter } from '../integration/keep-helpers';
import { keepHits } from './counting';

const KEY = 'test-operator-key-0123456789';

/** The retention read's use case on a store, asked with a query string, answering its status and body. */
export function retentionOf(store: Store, clock: Clock) {
  const operator = {
    operatorKey: KEY,
    hashKey: 'test-hash-key-0123456789',
    access: testAccess(clock),
  };
  return async (query: string) => {
    const request: IncomingRequest = {
      method: 'GET',
      header: (name) => (name === 'x-operator-key' ? KEY : null),
      query: new URLSearchParams(query),
      params: {},
      text: () => Promise.resolve(''),
    };
    const deps = { store, clock, logger: memoryLogger(), funnel: [], goals: [], ...utcZone };
    const answer = await operatorRead(request, operator, readQuery(retentionQuerySchema), (asked) => retentionCard(asked, deps));
    return { status: answer.status, body: answer.body as any };
  };
}

/** One message of months of traffic: its hits (all of one day), delivered twice or not, and the write its fold dies after. */
export interface MonthsMessage {
  hits: QueuedHit[];
  twice: boolean;
  failAfter: number;
}

/**
 * Keeps months of messages in the order of their hits, the clock moved to each as it comes, and after each a fold that
 * dies right after one of its writes and then folds until caught up: so every day is folded while it is near.
 */
export async function keptOverMonths(
  traffic: readonly MonthsMessage[],
  deps: FoldDeps & { store: ReturnType<typeof memoryStore>; clock: ReturnType<typeof fixedClock>; budget: FoldBudget },
): Promise<void> {
  const { store, clock } = deps;
  let serial = 0;
  for (const message of traffic) {
    const last = message.hits
      .map((hit) => hit.at)
      .sort()
      .pop()!;
    if (clock.now().toISOString() < last) clock.set(new Date(Date.parse(last) + 60_000));
    const id = `00000000-0000-4000-8000-${String((serial += 1)).padStart(12, '0')}`;
    await keepHits(store, clock, message.hits, id);
    if (message.twice) await keepHits(store, clock, message.hits, id);
    if (message.failAfter > 0) await fold({ ...deps, store: failingAfter(store, message.failAfter) });
    clock.advance(deps.budget.leaseSeconds * 1000);
    for (let run = 0; run < 40; run += 1) {
      const outcome = await fold(deps);
      clock.advance(1_000);
      if (outcome.ok && outcome.behind === null) break;
    }
  }
}
