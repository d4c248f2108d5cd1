import { utcDays, utcZone } from './hit-days';
import { memoryGuessing } from './access';
import { daySecretKeeper } from '../../shared/ingest/day-secrets';
import { testSecret } from './day-secrets';
import type { MemoryDocuments } from '../../adapters/memory/documents';
import { memoryStore } from '../../adapters/memory/store';
import { readMessage } from '../../shared/core/message';
import { importKeeper } from './keeper';
import type { ImportDeps } from '../../shared/ingest/import/receive';
import { answerImport } from '../../host/http/ingest';
import type { IncomingRequest } from '../../host/http/request';
import { fold } from '../../shared/fold/fold';
import { TIMER_FOLD_BUDGET, type FoldBudget } from '../../shared/fold/budget';
import { fixedClock } from '../../shared/core/ports/clock';
import type { HitQueue } from '../../shared/core/ports/queue';
import { scanRules } from '../../shared/core/subjects/scan-rule';
import { hostingNetworks } from '../../adapters/files/networks';
import { countries } from './countries';
import { HMAC_PERSON_IDS } from './persons';

export const INGEST_KEY = 'test-ingest-key-0123456789';

/** A request to a use case, as the local host hands one over. */
export const jsonRequest = (body: string, headers: Record<string, string> = {}): IncomingRequest => {
  const all = new Map(
    Object.entries({ 'content-type': 'application/json', 'x-ingest-key': INGEST_KEY, ...headers }).map(([k, v]) => [k.toLowerCase(), v]),
  );
  return {
    method: 'POST',
    header: (name) => all.get(name.toLowerCase()) ?? null,
    query: new URLSearchParams(),
    params: {},
    text: async () => body,
  };
};

/**
 * The import's whole path in memory: the endpoint (its queue a list), keep-imports over what it queued, and the
 * recount's fold, on a memory store and a clock that stands still; `fetch` answers the command as the app would.
 * With `documents`, the store starts with them (a copy of another rig's, to take several runs on from one state).
 */
export function importRig(now: string, documents?: MemoryDocuments) {
  const store = memoryStore(documents);
  const clock = fixedClock(now);
  const queued: string[] = [];
  let queueDown = false;
  const queue: HitQueue = {
    sendAll: async (messages) => {
      if (queueDown) return { ok: false, error: { reason: 'the queue is down' } };
      queued.push(...messages);
      return { ok: true };
    },
  };
  const deps: ImportDeps = {
    persons: HMAC_PERSON_IDS,
    rules: {
      hashKey: 'test-hash-key-0123456789abcdef',
      selfNetworks: ['10.20.0.0/16'],
      selfAgentTag: 'headcount-self',
      ignoredPaths: ['/api/admin', '/admin'],
      networks: hostingNetworks(),
      countries,
    },
    secrets: daySecretKeeper({ secrets: store.secrets, clock, lateDays: 7, dayOf: utcDays, newSecret: testSecret }),
    days: utcZone.days,
    queue,
    clock,
    store,
    ingestKey: INGEST_KEY,
    trustedProxyHops: 0,
    guesses: memoryGuessing(clock),
    allowedOrigins: ['https://example.com'],
  };
  const keep = importKeeper(store, clock);
  return {
    store,
    clock,
    deps,
    queued,
    setQueueDown: (down: boolean) => {
      queueDown = down;
    },
    /** The endpoint, answering what the command sends. */
    fetch: (async (_url: string | URL | Request, init?: RequestInit) => {
      const answer = await answerImport(jsonRequest(typeof init?.body === 'string' ? init.body : ''), deps);
      return new Response(JSON.stringify(answer.body ?? null), { status: answer.status, headers: { 'content-type': 'application/json' } });
    }) as typeof fetch,
    /** keep-imports over every message queued so far (in the order given), then the queue emptied. */
    async keepQueued(order: (messages: string[]) => string[] = (messages) => messages) {
      const messages = order(queued.splice(0));
      for (const text of messages) {
        const read = readMessage(text);
        if (!read.ok) throw new Error(read.reason);
        const kept = await keep(read.message);
        if (!kept.ok) throw new Error(kept.reason);
      }
      return messages.length;
    },
    /** Runs the fold until it says the count is up to date; answers how many runs it took. */
    async foldAll(budget: FoldBudget = TIMER_FOLD_BUDGET, most = 200) {
      for (let run = 1; run <= most; run += 1) {
        const outcome = await fold({ store, clock, rules: scanRules(10, 60), lateDays: 7, budget });
        if (!outcome.ok) throw new Error(outcome.reason);
        if (outcome.behind === null) return run;
      }
      throw new Error(`the fold was still behind after ${most} runs`);
    },
  };
}
