import type ipaddr from 'ipaddr.js';
import { parseAddress } from '../../../shared/core/identity/network';
import type { Clock } from '../../../shared/core/ports/clock';

/** A guesser gets at most two guesses a minute per address, and the owner is never kept out longer than that. */
export const SLOWDOWN = {
  freeFailures: 5,
  firstWaitSeconds: 1,
  longestWaitSeconds: 30,
  forgetAfterSeconds: 15 * 60,
  addressesKept: 10_000,
} as const;

export type Slowdown = { readonly [K in keyof typeof SLOWDOWN]: number };

export interface FailedChecks {
  /** Whole seconds, 0 when it may try now. */
  waitFor(address: string | null): number;
  /** Answers the whole seconds the address must now wait. */
  failed(address: string | null): number;
  succeeded(address: string | null): void;
  size(): number;
}

interface Record {
  failures: number;
  lastFailureMs: number;
  waitUntilMs: number;
}

/** IPv6 goes by its /64, since one subscriber could take a fresh address from it for each guess. */
export function slowdownKey(address: string | null): string {
  const parsed = address === null ? null : parseAddress(address);
  if (parsed === null) return 'unknown';
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
  return `${parts.join(':')}::/64`;
}

export function waitAfter(failures: number, limits: Slowdown = SLOWDOWN): number {
  const over = failures - limits.freeFailures;
  if (over <= 0) return 0;
  return Math.min(limits.firstWaitSeconds * 2 ** (over - 1), limits.longestWaitSeconds);
}

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
      // Bounded: the longest unseen go first.
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
