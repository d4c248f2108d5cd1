import type { HitsMessage } from '../core/message';
import { utcDay } from '../core/identity/tokens';
import type { Clock } from '../core/ports/clock';
import type { KeepingStore } from '../core/store';
import { FACT_TTL_SECONDS, factId, FOLD_DAYS, type Fact, type GoalAction, type SubjectScan } from '../core/store/facts';
import { addDays } from '../core/days';
import { errorLine } from '../core/errors';
import { retryConditionalWrite } from '../core/store/conditional-write';
import { KeyedMutex } from '../core/keyed-mutex';
import { KeptSightings } from './kept-sightings';
import { dayOf, planOf, sightingsOf, type DayPlan, type Sighting } from './plan';
import { sightedRecord } from './visitor';
import { firstOfRecord } from './first';
import type { First } from '../core/store/first-touch';
import type { VisitorRecord } from '../core/store/visitors';
import { factPersons, keepSwitched, marked, type PersonSwitch } from './switched';

/** Not ok means the queue retries. */
export type KeepOutcome = { ok: true; hits: number; already: boolean } | { ok: false; reason: string };

type Named = { action: (action: GoalAction) => GoalAction; scan: (scan: SubjectScan) => SubjectScan };

const factOf = (message: HitsMessage, day: string, plan: DayPlan, named: Named): Fact => ({
  id: factId(message.id),
  pk: day,
  kind: 'fact',
  day,
  message: message.id,
  hits: plan.visitorDays.reduce((sum, part) => sum + part.requests, 0),
  visitor_days: plan.visitorDays,
  hours: plan.hours,
  scans: plan.scans.map(named.scan),
  ...(plan.actions.length === 0 ? {} : { actions: plan.actions.map(named.action) }),
  ttl: FACT_TTL_SECONDS,
});

/** One per queue, per process. */
export const keepMemory = (): Pick<KeepDeps, 'kept' | 'visitorMutex'> => ({ kept: new KeptSightings(), visitorMutex: new KeyedMutex() });

export interface KeepDeps {
  store: KeepingStore;
  clock: Clock;
  /** So a visitor costs one read a day per process. */
  kept: KeptSightings;
  /** One change of a visitor's record at a time in this process. */
  visitorMutex: KeyedMutex;
  /** keep-imports sets it, since its landed notes lead the fold to old days; keep-hits refuses a day the fold no longer reads. */
  anyDay?: boolean;
  /** Set once the dated switch of person ids is registered: messages' old ids follow their records to derived ids. */
  personSwitch?: PersonSwitch;
}

/**
 * Writes only what one visitor or one message owns, so no write races another visitor's.
 * Records take sightings with If-Match, then each day gets one fact created once, so a retried message ends as one delivery would.
 */
export async function keepHits(message: HitsMessage, deps: KeepDeps): Promise<KeepOutcome> {
  const { store, clock, kept, visitorMutex } = deps;
  // Ids the ingest derived already are kept as they are; the others are the person hash.
  const derived = new Set(message.hits.flatMap((hit) => (hit.person_derived === true && hit.person !== null ? [hit.person] : [])));
  // Later invocations find the day kept and make no call.
  const keepVisitor = async (hash: string, sightings: Sighting[]): Promise<First | null> => {
    let first: First | null = null;
    await visitorMutex.run(hash, async () => {
      const unkept = kept.unkept(hash, sightings);
      if (unkept.length === 0) {
        first = kept.firstOf(hash);
        return;
      }
      const decide = (id: string) => async (current: VisitorRecord | null) => {
        const next = sightedRecord(current, id, unkept, clock.now().toISOString());
        first = firstOfRecord(next ?? current);
        return next;
      };
      if (deps.personSwitch === undefined || derived.has(hash))
        await retryConditionalWrite(store.records, [hash], marked(decide(hash), derived.has(hash)), `visitor record ${hash.slice(0, 8)}`);
      else await keepSwitched(deps.personSwitch, store.records, hash, decide, clock.now().toISOString());
      kept.remember(hash, unkept, first);
    });
    return first;
  };

  const days = new Set(message.hits.map((hit) => dayOf(hit.at)));
  const oldest = addDays(utcDay(clock.now()), -FOLD_DAYS);
  const late = deps.anyDay ? undefined : [...days].find((day) => day < oldest);
  // The fold reads no day this old, so keeping it would count it half: it stays on the queue, then in poison.
  if (late !== undefined) return { ok: false, reason: `hits of ${late} are older than the ${FOLD_DAYS} days the fold reads` };
  try {
    // Records first, so each fact carries its people's first day as their record holds it.
    const firsts = new Map(
      await Promise.all(
        [...sightingsOf(message.hits)].map(async ([hash, sightings]) => [hash, await keepVisitor(hash, sightings)] as const),
      ),
    );
    const facts = await factPersons(deps.personSwitch, message.hits);
    const plan = planOf(facts.hits, new Map([...firsts].map(([hash, first]) => [facts.idOf(hash), first] as const)));
    const created = await Promise.all([...plan.days].map(([day, parts]) => store.facts.create(factOf(message, day, parts, facts))));
    return { ok: true, hits: message.hits.length, already: created.every((outcome) => outcome === 'exists') };
  } catch (error) {
    return { ok: false, reason: errorLine(error) };
  }
}
