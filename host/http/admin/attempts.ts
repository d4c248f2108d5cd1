import type ipaddr from 'ipaddr.js';
import { parseAddress } from '../../../shared/core/identity/network';
import type { Clock } from '../../../shared/core/ports/clock';

/**
 * How failed operator key or session checks from one address are slowed. The first `freeFailures` are answered at
 * once (a typo, a pasted key with a space); from the next, the address waits before its next check is made at all,
 * `firstWaitSeconds` and doubling with each further failure up to `longestWaitSeconds`, so a guesser gets at most
 * two guesses a minute per address while the owner, who knows the key, is never kept out for longer than that.
 * Failures are forgotten `forgetAfterSeconds` after the last one, or at once on a right key. At most `addressesKept`
 * addresses are held, the longest unseen dropped first, so the state stays bounded whatever is thrown at it.
 */
export const SLOWDOWN = {
  freeFailures: 5,
  firstWaitSeconds: 1,
  longestWaitSeconds: 30,
  forgetAfterSeconds: 15 * 60,
  addressesKept: 10_000,
} as const;

export type Slowdown = { readonly [K in keyof typeof SLOWDOWN]: number };

/** The failed checks of each address, held in this process's memory. */
export interface FailedChecks {
  /** Whole seconds this address must still wait before a check of its key or session is made; 0 when it may try now. */
  waitFor(address: string | null): number;
  /** Records a failed check; answers the whole seconds the address must now wait before its next (0 while it has free tries). */
  failed(address: string | null): number;
  /** A right key from the address: its failures are forgotten. */
  succeeded(address: string | null): void;
  /** How many addresses are held now (never more than `addressesKept`). */
  size(): number;
}

interface Record {
  failures: number;
  lastFailureMs: number;
  waitUntilMs: number;
}

/**
 * The key an address is slowed under: an IPv4 address itself, an IPv6 address by its /64 (one subscriber holds a
 * whole /64, and could otherwise take a fresh address for each guess), `unknown` when none could be read.
 */
export function slowdownKey(address: string | null): string {
  const parsed = address === null ? null : parseAddress(address);
  if (parsed === null) return 'unknown';
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
  return `${parts.join(':')}::/64`;
}

/** The wait after a given number of failures in a row: none while free, then doubling to the longest. */
export function waitAfter(failures: number, limits: Slowdown = SLOWDOWN): number {
  const over = failures - limits.freeFailures;
  if (over <= 0) return 0;
  return Math.min(limits.firstWaitSeconds * 2 ** (over - 1), limits.longestWaitSeconds);
}

/** Failed checks counted per address on the clock given (a test's clock moves only when the test moves it). */
export function failedChecks(clock: Clock, limits: Slowdown = SLOWDOWN): FailedChecks {
  // A Map keeps insertion order: each failure re-inserts its address, so the first entries are the longest unseen.
  const held = new Map<string, Record>();
  const now = () => clock.now().getTime();
  const live = (key: string, at: number): Record | undefined => {
    const record = held.get(key);
    if (record && at - record.lastFailureMs >= limits.forgetAfterSeconds * 1000) {
      held.delete(key);
      return undefined;
    }
    return record;
  };
  const secondsUntil = (ms: number, at: number) => Math.max(0, Math.ceil((ms - at) / 1000));
  return {
    waitFor(address) {
      const at = now();
      const record = live(slowdownKey(address), at);
      return record ? secondsUntil(record.waitUntilMs, at) : 0;
    },
    failed(address) {
      const at = now();
      const key = slowdownKey(address);
      const failures = (live(key, at)?.failures ?? 0) + 1;
      const wait = waitAfter(failures, limits);
      held.delete(key);
      held.set(key, { failures, lastFailureMs: at, waitUntilMs: at + wait * 1000 });
      // Bounded: the longest unseen go first (those are also the first to be forgotten anyway).
      for (const oldest of held.keys()) {
        if (held.size <= limits.addressesKept) break;
        held.delete(oldest);
      }
      return wait;
    },
    succeeded(address) {
      held.delete(slowdownKey(address));
    },
    size: () => held.size,
  };
}
