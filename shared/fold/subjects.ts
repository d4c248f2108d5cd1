import type { SubjectScan } from '../core/store/facts';
import { applySubjectDelta, noSubjectDelta, plusSubject } from '../core/subjects/delta';
import { subjectVisitorId, type SubjectDelta, type SubjectsStore, type SubjectSummary, type SubjectVisitor } from '../core/store/subjects';
import { boundedMap } from '../core/bounded-map';
import type { ScanRules } from '../core/subjects/scan-rule';
import { scannedVisitor } from '../core/subjects/visitor';
import { conditionalWriteOnce, type FoldedChange } from '../core/store/conditional-write';
import { conditionalWritesOnce } from './write';
import type { GoalPersons } from './goals';

export interface WatermarkedScan {
  scan: SubjectScan;
  day: string;
  watermark: number;
}

/** A subject document's watermarks are by day, as the fold's are. */
const heldOn = (doc: { folded_to: number; folded_days?: Record<string, number> } | null | undefined, day: string) =>
  Math.max(doc?.folded_to ?? 0, doc?.folded_days?.[day] ?? 0);

/** Marks never move back; days past the fold's reach are dropped. */
function foldedDays(held: Record<string, number> | undefined, bounds: ReadonlyMap<string, number>, oldest: string): Record<string, number> {
  const days: Record<string, number> = {};
  for (const [day, watermark] of Object.entries(held ?? {})) if (day >= oldest) days[day] = watermark;
  for (const [day, watermark] of bounds) if (day >= oldest) days[day] = Math.max(days[day] ?? 0, watermark);
  return days;
}

/** Oldest first, each on the day its fact was kept: the site's local day. */
const inOrder = (scans: readonly WatermarkedScan[]) =>
  scans.map(({ scan, day }) => ({ at: scan.at, day })).sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));

/** Scans the summary already holds are judged first and add nothing, exactly as the run that died judged them. */
function judged(
  current: SubjectVisitor | null,
  subject: string,
  identity: string,
  scans: readonly WatermarkedScan[],
  summary: SubjectSummary | null,
  rules: ScanRules,
) {
  const mine = scans.filter(({ watermark, day }) => watermark > heldOn(current, day));
  const inSummary = ({ watermark, day }: WatermarkedScan) => watermark <= heldOn(summary, day);
  const held = scannedVisitor(current, subject, identity, inOrder(mine.filter(inSummary)), rules);
  const before = held?.visitor ?? current;
  const fresh = scannedVisitor(before, subject, identity, inOrder(mine.filter((scan) => !inSummary(scan))), rules);
  return { visitor: fresh?.visitor ?? before, delta: fresh?.delta ?? noSubjectDelta() };
}

/**
 * The summary is written first, then the visitors' documents, each marked with how far it holds.
 * A run that dies between finds the summary ahead and judges those scans again without adding them.
 */
async function foldSubject(
  store: SubjectsStore,
  subject: string,
  scans: readonly WatermarkedScan[],
  rules: ScanRules,
  bounds: { days: ReadonlyMap<string, number>; oldest: string },
): Promise<void> {
  const summary = await store.summaries.read(subject);
  const fresh = scans.filter(({ watermark, day }) => watermark > heldOn(summary?.doc, day));
  const people = scans.filter(({ scan }) => scan.who === 'people' && scan.identity !== null);
  const identities = [...new Set(people.map(({ scan }) => scan.identity!))];
  // While the switch is under way a visitor's document may still hold the old id.
  const was = new Map(people.flatMap(({ scan }) => (scan.was === undefined ? [] : [[scan.identity!, scan.was] as const])));
  const held = await store.visitors.of(subject, [...identities, ...was.values()]);
  const byIdentity = new Map(held.map((read) => [read.doc.identity, read]));
  const found = new Map(identities.map((identity) => [identity, byIdentity.get(identity) ?? byIdentity.get(was.get(identity) ?? '')]));
  const derived = new Set(people.filter(({ scan }) => scan.derived === true).map(({ scan }) => scan.identity!));
  let delta: SubjectDelta = {
    ...noSubjectDelta(),
    scanners: fresh.filter(({ scan }) => scan.who === 'scanners').length,
    self: fresh.filter(({ scan }) => scan.who === 'self').length,
  };
  const visitors: FoldedChange<SubjectVisitor>[] = [];
  // Old documents of visitors now under their derived id.
  const left: string[] = [];
  for (const identity of identities) {
    const current = found.get(identity) ?? null;
    const outcome = judged(
      current?.doc ?? null,
      subject,
      identity,
      people.filter(({ scan }) => scan.identity === identity),
      summary?.doc ?? null,
      rules,
    );
    delta = plusSubject(delta, outcome.delta);
    const watermark = current === null && derived.has(identity) ? { derived: true as const } : {};
    // A document under the old id moves as it changes, since the beacon may claim one until the ingest learns the switch is done.
    const moving = current !== null && current.doc.identity !== identity;
    if (outcome.visitor !== null && outcome.visitor !== current?.doc) {
      const after = { ...outcome.visitor, folded_days: foldedDays(outcome.visitor.folded_days, bounds.days, bounds.oldest), ...watermark };
      const moved = { ...after, id: subjectVisitorId(subject, identity), identity, derived: true as const };
      visitors.push(
        moving ? { before: null, etag: null, after: moved } : { before: current?.doc ?? null, etag: current?.etag ?? null, after },
      );
    }
    const old = byIdentity.get(was.get(identity) ?? '');
    if (old !== undefined && (moving ? outcome.visitor !== current.doc : true)) left.push(old.doc.id);
  }
  if (fresh.length > 0) {
    const applied = applySubjectDelta(subject, summary?.doc ?? null, delta);
    const after = { ...applied, folded_days: foldedDays(applied.folded_days, bounds.days, bounds.oldest) };
    await conditionalWriteOnce(
      store.summaries,
      { before: summary?.doc ?? null, etag: summary?.etag ?? null, after },
      `subject summary ${subject}`,
    );
  }
  await conditionalWritesOnce(store.visitors, visitors, () => `subject visitor ${subject}`);
  await boundedMap(left, SUBJECTS_AT_ONCE, (id) => store.moves.remove(subject, id));
}

const SUBJECTS_AT_ONCE = 8;

/** Once the switch has begun, a person's scan kept before it is named by the derived id too, as goal actions are. */
async function switched(persons: GoalPersons | undefined, scans: readonly WatermarkedScan[]): Promise<readonly WatermarkedScan[]> {
  if (persons === undefined || !(await persons.begun())) return scans;
  const old = ({ scan }: WatermarkedScan) => scan.who === 'people' && scan.identity !== null && scan.derived !== true;
  const olds = [...new Set(scans.filter(old).map(({ scan }) => scan.identity!))];
  const ids = new Map(await Promise.all(olds.map(async (id) => [id, await persons.derive(id)] as const)));
  return scans.map((marked) =>
    old(marked)
      ? { ...marked, scan: { ...marked.scan, identity: ids.get(marked.scan.identity!)!, derived: true, was: marked.scan.identity! } }
      : marked,
  );
}

/** `bounds.days` is how far this slice reads each day; watermarks of days before `bounds.oldest` go. */
export async function foldSubjects(
  store: SubjectsStore,
  given: readonly WatermarkedScan[],
  rules: ScanRules,
  bounds: { days: ReadonlyMap<string, number>; oldest: string },
  persons?: GoalPersons,
): Promise<void> {
  const scans = await switched(persons, given);
  const bySubject = new Map<string, WatermarkedScan[]>();
  for (const marked of scans) bySubject.set(marked.scan.subject, [...(bySubject.get(marked.scan.subject) ?? []), marked]);
  await boundedMap([...bySubject], SUBJECTS_AT_ONCE, ([subject, subjectScans]) => foldSubject(store, subject, subjectScans, rules, bounds));
}
