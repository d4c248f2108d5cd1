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
export type GuessTarget = 'operator' | 'ingest' | 'link' | 'api-key' | 'email-link' | `password:${string}`;

/** `wrong` may carry the wait its count now holds; `waiting` was not checked at all. */
export type Refused = { outcome: 'wrong'; wait: number } | { outcome: 'waiting'; wait: number };

export type GuessOutcome = { outcome: 'right' } | Refused;

export interface Guesses {
  /** Counted before it is checked, so a burst checks at most the free ones; a right guess is taken back. */
  checked(target: GuessTarget, address: string | null, check: () => Promise<boolean>): Promise<GuessOutcome>;
  /** A key compared in constant time: a wrong one is counted, a right one takes its place in the count and is refused while its address waits. */
  compared(target: GuessTarget, address: string | null, right: boolean): Promise<GuessOutcome>;
  /** As `compared`, but a right key only reads its address's count, so a busy sender's requests never contend. */
  sent(target: GuessTarget, address: string | null, right: boolean): Promise<GuessOutcome>;
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

/** While the store cannot answer, a process counts its own guesses, for at most this many secrets and addresses. */
const NEARBY_LIMIT = 10_000;

interface Held {
  guesses: number;
  lastMs: number;
}

/** Where a guess took its place in the count, so a right one is taken back there. */
type Place = Refused & { nearby: boolean };

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
  const live = (doc: { guesses: number; last_at: string } | null, nowMs: number): Held => {
    const lastMs = doc === null ? 0 : Date.parse(doc.last_at);
    if (doc === null || nowMs - lastMs >= limits.forgetAfterSeconds * 1000) return { guesses: 0, lastMs: 0 };
    return { guesses: doc.guesses, lastMs };
  };
  const waiting = (held: Held, nowMs: number) =>
    Math.max(0, Math.ceil((held.lastMs + waitAfter(held.guesses, limits) * 1000 - nowMs) / 1000));
  // A wrong guess adds one and is the last; a right key leaves the count as it was, or starts one at none.
  const counted = (held: Held, adds: 0 | 1, nowMs: number) => ({
    guesses: held.guesses + adds,
    last_at: new Date(adds === 1 || held.lastMs === 0 ? nowMs : held.lastMs).toISOString(),
  });

  const notCounted: Place = { outcome: 'waiting', wait: limits.firstWaitSeconds, nearby: false };
  // A wrong guess adds one; a right key writes the count unchanged, so it takes its place in the same order.
  const inStore = async (id: string, adds: 0 | 1): Promise<Place> => {
    for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
      const nowMs = clock.now().getTime();
      const read = await counts.read(id);
      const held = live(read?.doc ?? null, nowMs);
      const wait = waiting(held, nowMs);
      if (wait > 0) return { outcome: 'waiting', wait, nearby: false };
      const doc: GuessCount = { id, pk: GUESSES_PK, kind: 'guess-count', ...counted(held, adds, nowMs), ttl: limits.forgetAfterSeconds };
      if (await conditionalWrite(counts, read?.etag ?? null, doc))
        return { outcome: 'wrong', wait: waitAfter(doc.guesses, limits), nearby: false };
    }
    return notCounted;
  };
  const nearby = new Map<string, { guesses: number; last_at: string }>();
  // Counted in this process alone, with nothing awaited, while the store is down.
  const inProcess = (id: string, adds: 0 | 1): Place => {
    const nowMs = clock.now().getTime();
    const held = live(nearby.get(id) ?? null, nowMs);
    const wait = waiting(held, nowMs);
    if (wait > 0) return { outcome: 'waiting', wait, nearby: true };
    nearby.delete(id);
    if (nearby.size >= NEARBY_LIMIT) nearby.delete(nearby.keys().next().value!);
    nearby.set(id, counted(held, adds, nowMs));
    return { outcome: 'wrong', wait: waitAfter(held.guesses + adds, limits), nearby: true };
  };
  const place = (id: string, adds: 0 | 1): Promise<Place> => inStore(id, adds).catch(() => inProcess(id, adds));
  const waitOf = async (id: string): Promise<Place> => {
    const nowMs = clock.now().getTime();
    const read = await counts.read(id).catch(() => undefined);
    if (read === undefined) return inProcess(id, 0);
    const wait = waiting(live(read?.doc ?? null, nowMs), nowMs);
    return wait > 0 ? { outcome: 'waiting', wait, nearby: false } : { outcome: 'wrong', wait: 0, nearby: false };
  };
  const refused = ({ outcome, wait }: Place): Refused => ({ outcome, wait });

  const takeBack = async (id: string, where: Place): Promise<void> => {
    if (where.nearby) {
      const held = nearby.get(id);
      if (held !== undefined && held.guesses > 0) held.guesses -= 1;
      return;
    }
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
      const counted = await place(id, 1);
      if (counted.outcome === 'waiting') return refused(counted);
      if (!(await check())) return refused(counted);
      // A count not taken back only slows this address a little; the right guess is answered all the same.
      await takeBack(id, counted).catch(() => undefined);
      return { outcome: 'right' };
    },
    async compared(target, address, right) {
      const placed = await place(idOf(target, address), right ? 0 : 1);
      return placed.outcome === 'wrong' && right ? { outcome: 'right' } : refused(placed);
    },
    async sent(target, address, right) {
      if (!right) return refused(await place(idOf(target, address), 1));
      const waits = await waitOf(idOf(target, address));
      return waits.outcome === 'waiting' ? refused(waits) : { outcome: 'right' };
    },
    wrong: async (target, address) => refused(await place(idOf(target, address), 1)),
  };
}
