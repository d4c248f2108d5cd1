import { earlierOf } from '../days';
import type { DayFigures, SubjectDelta, SubjectSummary } from '../store/subjects';
import { subjectPk, subjectSummaryId } from '../store/subjects';

export const noSubjectDelta = (): SubjectDelta => ({
  scans: 0,
  unique: 0,
  scanners: 0,
  self: 0,
  by_day: {},
  first_scan: null,
  last_scan: null,
});

const later = (a: string | null, b: string | null) => (a === null ? b : b === null ? a : a > b ? a : b);

function sumByDay(a: Record<string, DayFigures>, b: Record<string, DayFigures>): Record<string, DayFigures> {
  const sum: Record<string, DayFigures> = { ...a };
  for (const [day, figures] of Object.entries(b)) {
    const kept = sum[day] ?? { scans: 0, new: 0 };
    sum[day] = { scans: kept.scans + figures.scans, new: kept.new + figures.new };
  }
  return Object.fromEntries(Object.entries(sum).sort(([x], [y]) => (x < y ? -1 : 1)));
}

export function plusSubject(a: SubjectDelta, b: SubjectDelta): SubjectDelta {
  return {
    scans: a.scans + b.scans,
    unique: a.unique + b.unique,
    scanners: a.scanners + b.scanners,
    self: a.self + b.self,
    by_day: sumByDay(a.by_day, b.by_day),
    first_scan: earlierOf(a.first_scan, b.first_scan),
    last_scan: later(a.last_scan, b.last_scan),
  };
}

/** With no summary yet, from zeros. */
export function applySubjectDelta(subject: string, summary: SubjectSummary | null, delta: SubjectDelta): SubjectSummary {
  const base: SubjectSummary = summary ?? {
    id: subjectSummaryId(subject),
    pk: subjectPk(subject),
    kind: 'subject-summary',
    subject,
    scans: 0,
    unique: 0,
    repeat: 0,
    scanners: 0,
    self: 0,
    first_scan: null,
    last_scan: null,
    by_day: {},
    folded_to: 0,
  };
  const scans = base.scans + delta.scans;
  const unique = base.unique + delta.unique;
  return {
    ...base,
    scans,
    unique,
    repeat: scans - unique,
    scanners: base.scanners + delta.scanners,
    self: base.self + delta.self,
    first_scan: earlierOf(base.first_scan, delta.first_scan),
    last_scan: later(base.last_scan, delta.last_scan),
    by_day: sumByDay(base.by_day, delta.by_day),
  };
}
