import { createHash, randomUUID } from 'node:crypto';
import type { QueuedHit } from '../../shared/core/message';
import type { Clock } from '../../shared/core/ports/clock';
import { keeper } from './keeper';
import type { FoldingStore, KeepingStore, Store } from '../../shared/core/store';
import { fold, type FoldOutcome } from '../../shared/fold/fold';
import { scanRules, type ScanRules } from '../../shared/core/subjects/scan-rule';
import { visitorDayId, type VisitorDay } from '../../shared/core/store/activity';

/** A 32-hex stand-in for a hash, from a short name, so fixtures read as "a", "b"… and still pass the queue's schema. */
export const hex = (name: string) => createHash('sha256').update(name).digest('hex').slice(0, 32);

/** One hashed hit as keep-hits reads it off the queue. */
export function queuedHit(
  at: string,
  options: {
    person?: string | null;
    token?: string;
    network?: string;
    bot?: boolean;
    self?: boolean;
    store?: string;
    path?: string;
    subject?: string | null;
    source?: string | null;
    page_load?: boolean;
  } = {},
): QueuedHit {
  const person = options.person === undefined ? 'p' : options.person;
  return {
    at,
    token: hex(options.token ?? `${person}|${at.slice(0, 10)}`),
    person: person === null || options.self ? null : hex(person),
    network: options.network ?? '203.0.113.x',
    path: options.path ?? '/',
    served_by: options.store ?? 'site',
    bot: options.bot ?? false,
    self: options.self ?? false,
    source: options.source ?? null,
    subject: options.subject ?? null,
    ...(options.page_load === undefined ? {} : { page_load: options.page_load }),
  };
}

/** Keeps hits the way keep-hits does, as one message; throws when the store could not keep them. */
export async function keepHits(store: KeepingStore, clock: Clock, hits: QueuedHit[], id: string = randomUUID()): Promise<void> {
  const kept = await keeper(store, clock)({ v: 1, id, hits });
  if (!kept.ok) throw new Error(kept.reason);
}

/** Runs the fold once, as its timer would, with the default scan rules; throws when it did not finish. */
export async function foldOnce(
  store: FoldingStore,
  clock: Clock,
  rules: ScanRules = scanRules(10, 60),
): Promise<FoldOutcome & { ok: true }> {
  const outcome = await fold({ store, clock, rules, lateDays: 7 });
  if (!outcome.ok) throw new Error(outcome.reason);
  return outcome;
}

/** Keeps hits as one message, then folds them: what the figures read a timer run later. */
export async function keepAndFold(store: Store, clock: Clock, hits: QueuedHit[], rules?: ScanRules): Promise<void> {
  await keepHits(store, clock, hits);
  await foldOnce(store, clock, rules);
}

/** A visitor-day document as the fold leaves it, for counting visits over plain data. */
export function visitorDay(
  day: string,
  token: string,
  options: { network?: string; requests?: number; bots?: number; self?: number; store?: string } = {},
): VisitorDay {
  const store = options.store ?? 'site';
  return {
    id: visitorDayId(store, hex(token)),
    pk: day,
    kind: 'visitor-day',
    store,
    day,
    token: hex(token),
    network: options.network ?? '203.0.113.x',
    first_seen: `${day}T10:00:00.000Z`,
    last_seen: `${day}T10:05:00.000Z`,
    requests: options.requests ?? 1,
    bots: options.bots ?? 0,
    self: options.self ?? 0,
    paths: { '/': options.requests ?? 1 },
    sources: {},
    page_loads: options.requests ?? 1,
    visit: false,
    folded_to: 0,
  };
}
