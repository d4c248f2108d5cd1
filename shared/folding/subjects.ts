import type { SubjectScan } from '../store/facts';
import { applySubjectDelta, noSubjectDelta, plusSubject } from '../subjects/delta';
import type { SubjectDelta, SubjectsStore, SubjectVisitor } from '../subjects/documents';
import type { ScanRules } from '../subjects/scan-rule';
import { scannedVisitor } from '../subjects/visitor';
import { rewrite, rewriteAll, type Rewrite } from './write';

/** A scan as the fold reads it: with the mark of the fact that holds it. */
export interface MarkedScan {
  scan: SubjectScan;
  mark: number;
}

const instants = (scans: readonly MarkedScan[]) => scans.map(({ scan }) => scan.at).sort();

/**
 * One visitor's document after the new scans, judged in the order of their instants, and what that adds to the
 * summary. Scans the summary already holds (a run that wrote it died before this document) are judged first, apart and
 * adding nothing, exactly as that run judged them; the rest add what they count.
 */
function judged(
  current: SubjectVisitor | null,
  subject: string,
  identity: string,
  scans: readonly MarkedScan[],
  summaryHeldTo: number,
  rules: ScanRules,
) {
  const mine = scans.filter(({ mark }) => mark > (current?.folded_to ?? 0));
  const held = scannedVisitor(current, subject, identity, instants(mine.filter(({ mark }) => mark <= summaryHeldTo)), rules);
  const before = held?.visitor ?? current;
  const fresh = scannedVisitor(before, subject, identity, instants(mine.filter(({ mark }) => mark > summaryHeldTo)), rules);
  return { visitor: fresh?.visitor ?? before, delta: fresh?.delta ?? noSubjectDelta() };
}

/**
 * Folds one subject's new scans: people's scans judged against their documents (the refresh window, the interval, the
 * first counted scan making a unique visitor), scanners' and the site's own counted apart. The summary is written
 * first, marked with how far it holds; then the visitors' documents, each marked too. A run that dies between finds the
 * summary ahead of a document and judges those scans again without adding them (see judged).
 */
async function foldSubject(
  store: SubjectsStore,
  subject: string,
  scans: readonly MarkedScan[],
  rules: ScanRules,
  bound: number,
): Promise<void> {
  const summary = await store.summaries.read(subject);
  const heldTo = summary?.doc.folded_to ?? 0;
  const fresh = scans.filter(({ mark }) => mark > heldTo);
  const people = scans.filter(({ scan }) => scan.who === 'people' && scan.identity !== null);
  const identities = [...new Set(people.map(({ scan }) => scan.identity!))];
  const found = new Map((await store.visitors.of(subject, identities)).map((read) => [read.doc.identity, read]));
  let delta: SubjectDelta = {
    ...noSubjectDelta(),
    scanners: fresh.filter(({ scan }) => scan.who === 'scanners').length,
    self: fresh.filter(({ scan }) => scan.who === 'self').length,
  };
  const visitors: Rewrite<SubjectVisitor>[] = [];
  for (const identity of identities) {
    const current = found.get(identity) ?? null;
    const outcome = judged(
      current?.doc ?? null,
      subject,
      identity,
      people.filter(({ scan }) => scan.identity === identity),
      heldTo,
      rules,
    );
    delta = plusSubject(delta, outcome.delta);
    if (outcome.visitor !== null && outcome.visitor !== current?.doc)
      visitors.push({ before: current?.doc ?? null, etag: current?.etag ?? null, after: { ...outcome.visitor, folded_to: bound } });
  }
  if (fresh.length > 0) {
    const after = { ...applySubjectDelta(subject, summary?.doc ?? null, delta), folded_to: bound };
    await rewrite(store.summaries, { before: summary?.doc ?? null, etag: summary?.etag ?? null, after }, `subject summary ${subject}`);
  }
  await rewriteAll(store.visitors, visitors, () => `subject visitor ${subject}`);
}

/** Folds the run's new subject scans, subject by subject. */
export async function foldSubjects(store: SubjectsStore, scans: readonly MarkedScan[], rules: ScanRules, bound: number): Promise<void> {
  const bySubject = new Map<string, MarkedScan[]>();
  for (const marked of scans) bySubject.set(marked.scan.subject, [...(bySubject.get(marked.scan.subject) ?? []), marked]);
  await Promise.all([...bySubject].map(([subject, subjectScans]) => foldSubject(store, subject, subjectScans, rules, bound)));
}
