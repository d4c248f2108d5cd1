import type { SubjectVisitor } from '../store/subjects';

/** In milliseconds. */
export interface ScanRules {
  refreshMs: number;
  intervalMs: number;
}

/**
 * - `seen`: at or before the latest scan judged, a repeat delivery; this makes a message kept twice count once.
 * - `refresh`: within the refresh window of the latest scan judged, so a chain of reloads is one scan.
 * - `limited`: within the interval of the latest counted scan: answered, not counted.
 * - `counted`: otherwise.
 */
export type Judgement = 'seen' | 'refresh' | 'limited' | 'counted';

type Marks = Pick<SubjectVisitor, 'last_seen' | 'last_counted'>;

const elapsed = (from: string, to: string) => Date.parse(to) - Date.parse(from);

/** `at` is ISO 8601 UTC. */
export function judge(watermarks: Marks, at: string, rules: ScanRules): Judgement {
  if (watermarks.last_seen !== null) {
    const sinceSeen = elapsed(watermarks.last_seen, at);
    if (sinceSeen <= 0) return 'seen';
    if (sinceSeen < rules.refreshMs) return 'refresh';
  }
  if (watermarks.last_counted !== null && elapsed(watermarks.last_counted, at) < rules.intervalMs) return 'limited';
  return 'counted';
}

/** Settings are whole seconds. */
export const scanRules = (refreshSeconds: number, intervalSeconds: number): ScanRules => ({
  refreshMs: refreshSeconds * 1000,
  intervalMs: intervalSeconds * 1000,
});
