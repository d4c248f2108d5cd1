import type { SubjectVisitor } from './documents';

/** The two mitigations, in milliseconds: the refresh window and the least time between two counted scans. */
export interface ScanRules {
  refreshMs: number;
  intervalMs: number;
}

/**
 * How one scan of a subject by one identity is judged:
 * - `seen`: at or before the latest scan already judged: a late or repeated delivery, changes nothing (this is what
 *   makes a message kept twice count once);
 * - `refresh`: less than the refresh window after the latest scan judged: a reload, the same scan (a chain of
 *   reloads each within the window stays one scan however long it lasts);
 * - `limited`: less than the interval after the latest counted scan: answered normally, not counted;
 * - `counted`: otherwise.
 */
export type Judgement = 'seen' | 'refresh' | 'limited' | 'counted';

type Marks = Pick<SubjectVisitor, 'last_seen' | 'last_counted'>;

const elapsed = (from: string, to: string) => Date.parse(to) - Date.parse(from);

/** The judgement of a scan at `at` (ISO 8601 UTC) given the identity's marks on the subject. */
export function judge(marks: Marks, at: string, rules: ScanRules): Judgement {
  if (marks.last_seen !== null) {
    const sinceSeen = elapsed(marks.last_seen, at);
    if (sinceSeen <= 0) return 'seen';
    if (sinceSeen < rules.refreshMs) return 'refresh';
  }
  if (marks.last_counted !== null && elapsed(marks.last_counted, at) < rules.intervalMs) return 'limited';
  return 'counted';
}

/** The scan rules from the settings (whole seconds). */
export const scanRules = (refreshSeconds: number, intervalSeconds: number): ScanRules => ({
  refreshMs: refreshSeconds * 1000,
  intervalMs: intervalSeconds * 1000,
});
