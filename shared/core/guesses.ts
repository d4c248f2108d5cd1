import { createHmac } from 'node:crypto';
import type ipaddr from 'ipaddr.js';
import { parseAddress } from './identity/network';
import type { Clock } from './ports/clock';
import type { Failure } from './result';
import { conditionalWrite } from './store/conditional-write';
import { GUESSES_PK, type GuessCount, type GuessCounts } from './store/guesses';

/** Five guesses are free; then the address waits 1 second, doubling with each more to 30; 15 quiet minutes forget them. */
export const SLOWDOWN = {
  freeGuesses: 5,
  firstWaitSeconds: 1,
  longestWaitSeconds: 30,
  forgetAfterSeconds: 15 * 60,
} as const;

export type Slowdown = { readonly [K in keyof typeof SLOWDOWN]: number };

/** Each secret is counted apart, so failing at one slows no other; a link's password is counted per link. */
export type GuessTarget = 'operator' | 'ingest' | 'link' | `password:${string}`;

/** `wrong` may carry the wait its count now holds; `waiting` was not checked at all. */
export type Refused = { outcome: 'wrong'; wait: number } | { outcome: 'waiting'; wait: number };

export type GuessOutcome = { outcome: 'right' } | Refused;

export interface Guesses {
  /** Counted before it is checked, so a burst checks at most the free ones; a right guess is taken back. */
  checked(target: GuessTarget, address: string | null, check: () => Promise<boolean>): Promise<GuessOutcome>;
  /** A key compared in constant time, with no wait: a wrong one is counted, a right one refused while its address waits. */
  compared(target: GuessTarget, address: string | null, right: boolean): Promise<GuessOutcome>;
  /** A guess known wrong without a check, such as a forged cookie. */
  wrong(target: GuessTarget, address: string | null): Promise<Refused>;
}

export interface GuessDeps {
  counts: GuessCounts;
  clock: Clock;
  hashKey: string;
  limits?: Slowdown;
}

/** IPv6 goes by its /64, since one subscriber could take a fresh address from it for each guess. */
export function slowdownKey(address: string | null): string {
  const parsed = address === null ? null : parseAddress(address);
  if (parsed === null) return 'unknown';
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
  return `${parts.join(':')}::/64`;
}

/** Whole seconds an address waits once this many guesses are counted. */
export function waitAfter(guesses: number, limits: Slowdown = SLOWDOWN): number {
  const over = guesses - limits.freeGuesses;
  if (over < 0) return 0;
  return Math.min(limits.firstWaitSeconds * 2 ** over, limits.longestWaitSeconds);
}

const secondsWords = (seconds: number) => `${seconds} second${seconds === 1 ? '' : 's'}`;

/** 429 for a guess not checked, 401 for a wrong one; `message` is the 401's, a sentence. */
export function guessFailure(refused: Refused, message: string): Failure {
  const { wait } = refused;
  if (refused.outcome === 'waiting') {
    const tooMany = `Too many wrong tries from this address; try again in ${secondsWords(wait)}.`;
    return { status: 429, code: 'too_many_attempts', message: tooMany, retryAfter: wait };
  }
  if (wait === 0) return { status: 401, code: 'unauthorized', message };
  const waits = `${message.slice(0, -1)}; this address waits ${secondsWords(wait)} before its next try.`;
  return { status: 401, code: 'unauthorized', message: waits, retryAfter: wait };
}

/** Reads again after a lost race at most this often; a guess that cannot be counted is not checked. */
const ATTEMPTS = 25;

interface Held {
  guesses: number;
  lastMs: number;
}

export function guesses(deps: GuessDeps): Guesses {
  const limits = deps.limits ?? SLOWDOWN;
  const { counts, clock } = deps;
  const key = createHmac('sha256', deps.hashKey).update('guess-count-key').digest();
  const idOf = (target: GuessTarget, address: string | null) =>
    `guess:${createHmac('sha256', key)
      .update(`${target}|${slowdownKey(address)}`)
      .digest('hex')
      .slice(0, 32)}`;
  // The local Cosmos server deletes nothing by TTL, so a count past it is read as none.
  const live = (doc: GuessCount | null, nowMs: number): Held => {
    const lastMs = doc === null ? 0 : Date.parse(doc.last_at);
    if (doc === null || nowMs - lastMs >= limits.forgetAfterSeconds * 1000) return { guesses: 0, lastMs: 0 };
    return { guesses: doc.guesses, lastMs };
  };
  const waiting = (held: Held, nowMs: number) =>
    Math.max(0, Math.ceil((held.lastMs + waitAfter(held.guesses, limits) * 1000 - nowMs) / 1000));

  const notCounted: Refused = { outcome: 'waiting', wait: limits.firstWaitSeconds };
  const counted = async (id: string): Promise<Refused> => {
    for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
      const nowMs = clock.now().getTime();
      const read = await counts.read(id);
      const held = live(read?.doc ?? null, nowMs);
      const wait = waiting(held, nowMs);
      if (wait > 0) return { outcome: 'waiting', wait };
      const doc: GuessCount = {
        id,
        pk: GUESSES_PK,
        kind: 'guess-count',
        guesses: held.guesses + 1,
        last_at: new Date(nowMs).toISOString(),
        ttl: limits.forgetAfterSeconds,
      };
      if (await conditionalWrite(counts, read?.etag ?? null, doc)) return { outcome: 'wrong', wait: waitAfter(doc.guesses, limits) };
    }
    return notCounted;
  };
  // A store that cannot count a guess leaves it unchecked, as a lost race does.
  const count = (id: string): Promise<Refused> => counted(id).catch(() => notCounted);

  const takeBack = async (id: string): Promise<void> => {
    for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
      const read = await counts.read(id);
      const held = live(read?.doc ?? null, clock.now().getTime());
      if (read === null || held.guesses === 0) return;
      if ((await counts.replace({ ...read.doc, guesses: held.guesses - 1 }, read.etag)) === 'replaced') return;
    }
  };

  return {
    async checked(target, address, check) {
      const id = idOf(target, address);
      const counted = await count(id);
      if (counted.outcome === 'waiting') return counted;
      if (!(await check())) return counted;
      // A count not taken back only slows this address a little; the right guess is answered all the same.
      await takeBack(id).catch(() => undefined);
      return { outcome: 'right' };
    },
    async compared(target, address, right) {
      const id = idOf(target, address);
      if (!right) return count(id);
      const nowMs = clock.now().getTime();
      // A right key is let in when the store cannot say whether its address waits, so ingest outlives a store outage.
      const read = await counts.read(id).catch(() => null);
      const wait = waiting(live(read?.doc ?? null, nowMs), nowMs);
      return wait > 0 ? { outcome: 'waiting', wait } : { outcome: 'right' };
    },
    wrong: (target, address) => count(idOf(target, address)),
  };
}
