import { createHash, randomUUID } from 'node:crypto';
import type { QueuedHit } from '../../shared/hits/message';
import type { Clock } from '../../shared/ports/clock';
import { keeper } from '../../shared/keeping/keep';
import type { KeepingStore } from '../../shared/store';
import { visitorDayId, type VisitorDay } from '../../shared/store/activity';

/** A 32-hex stand-in for a hash, from a short name, so fixtures read as "a", "b"… and still pass the queue's schema. */
export const hex = (name: string) => createHash('sha256').update(name).digest('hex').slice(0, 32);

/** One hashed hit as keep-hits reads it off the queue. */
export function queuedHit(at: string, options: { person?: string | null; token?: string; network?: string; bot?: boolean; self?: boolean; store?: string; path?: string } = {}): QueuedHit {
  const person = options.person === undefined ? 'p' : options.person;
  return {
    at,
    token: hex(options.token ?? `${person}|${at.slice(0, 10)}`),
    person: person === null || options.self ? null : hex(person),
    network: options.network ?? '203.0.113.x',
    path: options.path ?? '/',
    store: options.store ?? 'site',
    bot: options.bot ?? false,
    self: options.self ?? false,
    source: null,
    subject: null,
  };
}

/** Keeps hits the way keep-hits does, as one message; throws when the store could not keep them. */
export async function keepHits(store: KeepingStore, clock: Clock, hits: QueuedHit[], id: string = randomUUID()): Promise<void> {
  const kept = await keeper(store, clock)({ v: 1, id, hits });
  if (!kept.ok) throw new Error(kept.reason);
}

/** A visitor-day document as keep-hits leaves it, for counting visits over plain data. */
export function visitorDay(day: string, token: string, options: { network?: string; requests?: number; bots?: number; self?: number; store?: string; written?: number } = {}): VisitorDay {
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
    // keep-hits marks every write with the message and when it applied it (epoch seconds).
    applied: { [randomUUID()]: options.written ?? 0 },
  };
}
