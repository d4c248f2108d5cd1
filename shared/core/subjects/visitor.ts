import { plusSubject, noSubjectDelta } from './delta';
import { subjectPk, subjectVisitorId, type SubjectDelta, type SubjectVisitor } from '../store/subjects';
import { judge, type ScanRules } from './scan-rule';

/** What the beacon creates to claim the first scan. */
export function claimedVisitor(subject: string, identity: string, at: string): SubjectVisitor {
  return {
    id: subjectVisitorId(subject, identity),
    pk: subjectPk(subject),
    kind: 'subject-visitor',
    subject,
    identity,
    first_scan: at,
    last_seen: null,
    last_counted: null,
    scans: 0,
    folded_to: 0,
  };
}

/** A scan's instant, and the site's local day it was kept on. */
export interface DayScan {
  at: string;
  day: string;
}

const countedAt = ({ at, day }: DayScan, first: boolean): SubjectDelta => ({
  ...noSubjectDelta(),
  scans: 1,
  unique: first ? 1 : 0,
  by_day: { [day]: { scans: 1, new: first ? 1 : 0 } },
  first_scan: at,
  last_scan: at,
});

/** Judges each scan in turn, oldest first; null when every scan was already judged. */
export function scannedVisitor(
  current: SubjectVisitor | null,
  subject: string,
  identity: string,
  scans: readonly DayScan[],
  rules: ScanRules,
): { visitor: SubjectVisitor; delta: SubjectDelta } | null {
  if (scans.length === 0) return null;
  let visitor = current ?? claimedVisitor(subject, identity, scans[0]!.at);
  let delta = noSubjectDelta();
  let changed = current === null;
  for (const scan of scans) {
    const { at } = scan;
    const judged = judge(visitor, at, rules);
    if (judged === 'seen') continue;
    changed = true;
    const first = at < visitor.first_scan ? at : visitor.first_scan;
    if (judged === 'counted') {
      delta = plusSubject(delta, countedAt(scan, visitor.scans === 0));
      visitor = { ...visitor, first_scan: first, last_seen: at, last_counted: at, scans: visitor.scans + 1 };
    } else {
      visitor = { ...visitor, first_scan: first, last_seen: at };
    }
  }
  return changed ? { visitor, delta } : null;
}
