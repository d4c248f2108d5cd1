import { Contended, retryConditionalWrite, type Decide } from '../core/store/conditional-write';
import { migrationStatus, type Migrations } from '../core/store/migrations';
import { isMoved, PERSON_IDS_MIGRATION, type PersonMoved, type VisitorAt } from '../core/store/person-moves';
import type { VisitorRecord, VisitorRecords } from '../core/store/visitors';
import type { QueuedHit } from '../core/message';
import type { GoalAction, SubjectScan } from '../core/store/facts';
import { movedRecord, moveRecord } from './person-move';

/** What keep-hits needs of the dated switch of person ids (docs/design.md, Identity). */
export interface PersonSwitch {
  at: VisitorAt;
  /** Whether the person-ids migration has begun; once true it stays true. */
  begun(): Promise<boolean>;
  /** The derived id of a person's HMAC value. */
  derive(old: string): Promise<string>;
}

const ATTEMPTS = 25;

/** A record written under a derived id says so, so the migration never moves it again. */
export const marked =
  (decide: Decide<VisitorRecord>, derived: boolean): Decide<VisitorRecord> =>
  async (current) => {
    const next = await decide(current);
    return next === null || !derived || next.derived ? next : { ...next, derived: true };
  };

/** Moves the record at an old id if it is still there; answers its marker, or null when there was never a record. */
async function movedAway(sw: PersonSwitch, hash: string, now: string): Promise<PersonMoved | null> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    const held = await sw.at.read(hash);
    if (held === null) return null;
    const { doc, etag } = held;
    if (isMoved(doc)) return doc;
    await moveRecord(sw.at, { doc, etag }, { to: await sw.derive(hash), now, slice: 0 });
  }
  throw new Contended(`visitor record ${hash.slice(0, 8)}`);
}

/** Under the derived id, created from the marker when the move died before its new record. */
async function keepDerived(
  sw: PersonSwitch,
  records: VisitorRecords,
  hash: string,
  marker: PersonMoved | null,
  decide: (id: string) => Decide<VisitorRecord>,
  now: string,
): Promise<void> {
  const to = marker?.to ?? (await sw.derive(hash));
  await retryConditionalWrite(
    records,
    [to],
    marked(async (current) => {
      const base = current ?? (marker === null ? null : movedRecord(marker, now));
      return (await decide(to)(base)) ?? (current === null ? base : null);
    }, true),
    `visitor record ${to.slice(0, 8)}`,
  );
}

/**
 * Keeps a visitor's sightings given its old id (the HMAC value) while the switch is under way or done.
 * Before the migration begins the old record takes them, and one created as it began is moved here, so the
 * migration's last slice cannot miss it; once begun, the record is moved first and the derived one takes them.
 */
export async function keepSwitched(
  sw: PersonSwitch,
  records: VisitorRecords,
  hash: string,
  decide: (id: string) => Decide<VisitorRecord>,
  now: string,
): Promise<void> {
  if (await sw.begun()) return keepDerived(sw, records, hash, await movedAway(sw, hash, now), decide, now);
  const found: { marker: PersonMoved | null } = { marker: null };
  await retryConditionalWrite(
    sw.at,
    [hash],
    async (current) => {
      found.marker = isMoved(current) ? current : null;
      return isMoved(current) ? null : decide(hash)(current);
    },
    `visitor record ${hash.slice(0, 8)}`,
  );
  if (found.marker !== null) return keepDerived(sw, records, hash, found.marker, decide, now);
  if (await sw.begun()) await movedAway(sw, hash, now);
}

/** Reads the migration's status until it has begun, then never again. */
export function personSwitch(migrations: Pick<Migrations, 'read'>, at: VisitorAt, derive: (old: string) => Promise<string>): PersonSwitch {
  let begun = false;
  return {
    at,
    derive,
    async begun() {
      if (begun) return true;
      const status = await migrationStatus(migrations, PERSON_IDS_MIGRATION);
      begun = status.done || status.begun;
      return begun;
    },
  };
}

const isOld = (hit: QueuedHit): hit is QueuedHit & { person: string } => hit.person !== null && hit.person_derived !== true;

/**
 * Once the migration has begun the facts name each person by the derived id, as the records do; `idOf` maps a message's
 * id to the one its facts hold. Before, they keep the message's ids.
 */
export async function factPersons(
  sw: PersonSwitch | undefined,
  hits: readonly QueuedHit[],
): Promise<{
  hits: readonly QueuedHit[];
  idOf: (id: string) => string;
  action: (action: GoalAction) => GoalAction;
  scan: (scan: SubjectScan) => SubjectScan;
}> {
  if (sw === undefined || !(await sw.begun())) return { hits, idOf: (id) => id, action: (action) => action, scan: (scan) => scan };
  const olds = new Set(hits.filter(isOld).map((hit) => hit.person));
  const ids = new Map(await Promise.all([...olds].map(async (old) => [old, await sw.derive(old)] as const)));
  const was = new Map([...ids].map(([old, id]) => [id, old] as const));
  return {
    hits: hits.map((hit) => (isOld(hit) ? { ...hit, person: ids.get(hit.person)!, person_derived: true } : hit)),
    idOf: (id) => ids.get(id) ?? id,
    // Goal and subject documents not moved yet hold the old id.
    action: (action) => (was.has(action.person) ? { ...action, was: was.get(action.person)! } : action),
    scan: (scan) => (scan.identity !== null && was.has(scan.identity) ? { ...scan, was: was.get(scan.identity)! } : scan),
  };
}
