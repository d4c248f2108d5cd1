import { createHmac, randomBytes } from 'node:crypto';
import { z } from 'zod';
import { addDays } from '../../core/days';
import { isLoopbackNetwork } from '../../core/identity/network';
import { boundedMap } from '../../core/bounded-map';
import { utcDay } from '../../core/identity/tokens';
import type { Clock } from '../../core/ports/clock';
import { visitorDayId, type VisitorDay } from '../../core/store/activity';
import { REKEY_SECRET_TTL, rekeySecretId, SECRETS_PK, type DaySecrets, type RekeySecret } from '../../core/store/day-secrets';
import { FOLD_DAYS } from '../../core/store/facts';
import type { FoldState, FoldStates } from '../../core/store/fold';
import { OLD_DAYS_MIGRATION, type OldDays } from '../../core/store/old-days';
import type { Migration } from './runner';

/** Documents a slice, so a slice stays a second or two whatever the run's `recordsASlice`. */
const MOVES_A_SLICE = 200;

/** Writes in flight at once. */
const WRITES_AT_ONCE = 8;

type Step = 'again' | 'pass' | 'wait';

/** Loopback's rows are few a day: one machine, a row a store and agent family. */
const NETWORKS_READ = 100;

export interface OldDaysDeps {
  days: OldDays;
  secrets: DaySecrets;
  foldState: Pick<FoldStates, 'read'>;
  /** The first day a visitor-day can be kept on; null when none is. */
  firstDay: () => Promise<string | null>;
  clock: Clock;
  /** 32 random bytes as hex when not given. */
  newSecret?: (day: string) => string;
}

/** The next day to make again, the last (the day the migration began), and the slice that moved it last. */
const placeSchema = z.strictObject({ day: z.string(), until: z.string(), slice: z.number().int() });
type Place = z.infer<typeof placeSchema>;

function placeOf(position: string): Place {
  const parsed = placeSchema.safeParse(JSON.parse(position));
  if (!parsed.success) throw new Error(`the ${OLD_DAYS_MIGRATION} migration holds a position it did not write`);
  return parsed.data;
}

/** The same shape as a daily token, so every read takes it as one. */
const tokenAgain = (secret: string, token: string) =>
  createHmac('sha256', secret).update(token, 'utf8').digest().subarray(0, 16).toString('hex');

/** Loopback's network stays, as the current code keeps it: the machine's own requests stay one visit. */
function rekeyed(doc: VisitorDay, secret: string): VisitorDay {
  const token = tokenAgain(secret, doc.token);
  const network = isLoopbackNetwork(doc.network) ? doc.network : 'x';
  return { ...doc, id: visitorDayId(doc.store, token), token, network, rekeyed: true };
}

/** Create, and on 409 read the one a run before made, so a day's tokens are made again with one secret. */
async function secretOf(day: string, deps: OldDaysDeps): Promise<string> {
  const id = rekeySecretId(day);
  const kept = await deps.secrets.read(id);
  if (kept !== null) return kept.secret;
  const doc: RekeySecret = {
    id,
    pk: SECRETS_PK,
    kind: 'rekey-secret',
    day,
    secret: (deps.newSecret ?? (() => randomBytes(32).toString('hex')))(day),
    ttl: REKEY_SECRET_TTL,
  };
  if ((await deps.secrets.create(doc)) === 'created') return doc.secret;
  const made = await deps.secrets.read(id);
  if (made === null) throw new Error(`the secret re-keying ${day} was deleted while it was made`);
  return made.secret;
}

/**
 * At most `limit` of a day's documents: each visitor-day created under its new token (409: done) before the old one is
 * removed, then the day's facts removed (unless one is past the settled watermark `bound`), then its secret. Answers how
 * many it found, whether the day is done, and whether a fact past the watermark stopped it.
 */
async function dayAgain(
  day: string,
  limit: number,
  bound: number,
  deps: OldDaysDeps,
): Promise<{ found: number; done: boolean; unsettled?: true }> {
  const docs = await deps.days.unkeyed(day, limit);
  if (docs.length > 0) {
    const secret = await secretOf(day, deps);
    await boundedMap(docs, WRITES_AT_ONCE, async (doc) => {
      await deps.days.create(rekeyed(doc, secret));
      await deps.days.remove(day, doc.id);
    });
    if (docs.length === limit) return { found: docs.length, done: false };
  }
  // Nothing reads a fact of a day out of the fold's reach; Cosmos DB's time-to-live would remove it, the local server's does not.
  const facts = await deps.days.facts(day, limit - docs.length);
  // One past the settled watermark may be an import's whose note is still to come: the day waits for a run that reads it.
  if (facts.some((fact) => fact.watermark > bound)) return { found: docs.length, done: false, unsettled: true };
  await boundedMap(facts, WRITES_AT_ONCE, (fact) => deps.days.removeFact(day, fact.id));
  if (docs.length + facts.length === limit) return { found: limit, done: false };
  await deps.secrets.remove(rekeySecretId(day));
  return { found: docs.length + facts.length, done: true };
}

/**
 * A day the fold reads no more (out of its reach, not an imported day still to fold or whose import's note it has not
 * read, no rollup being built) is made again. One it may still read waits while it keeps a network, and is passed
 * otherwise: its tokens have a day's secret.
 */
async function stepOf(day: string, today: string, deps: OldDaysDeps, state: () => Promise<FoldState | null>): Promise<Step> {
  if (day >= addDays(today, -FOLD_DAYS - 1)) {
    const networks = await deps.days.networks(day, NETWORKS_READ);
    return networks.some((network) => !isLoopbackNetwork(network)) ? 'wait' : 'pass';
  }
  const held = await state();
  if (held !== null && (held.build !== null || held.imported.includes(day))) return 'wait';
  return (await deps.days.landedAfter(day, held?.imports ?? 0)) ? 'wait' : 'again';
}

/**
 * Makes every token kept before the day's secrets again, day by day up to the day it began, with a secret of that day
 * deleted once the day is done, and drops their networks and the day's facts, so no dump and no key gives their
 * addresses back (docs/threat-model.md). A day the fold may still read waits while it keeps a network: a slice that can
 * move nothing answers the position it was given, and the runner leaves the migration for a later run. A day's tokens
 * are made again with one secret, so the reads and the visits that group a day's documents by token find them as before.
 */
export function oldDaysMigration(deps: OldDaysDeps): Migration {
  return {
    name: OLD_DAYS_MIGRATION,
    async slice({ position, number, limit, bound = Number.POSITIVE_INFINITY }) {
      const today = utcDay(deps.clock.now());
      const first = position === null ? await deps.firstDay() : null;
      if (position === null && first === null) return null;
      const place = position === null ? { day: first!, until: today, slice: 0 } : placeOf(position);
      let { day } = place;
      let left = Math.min(limit, MOVES_A_SLICE);
      // The fold state is read once a slice, and only when a day out of the fold's reach asks it.
      let read: Promise<FoldState | null> | undefined;
      const state = () => (read ??= deps.foldState.read().then((found) => found?.doc ?? null));
      let moved = false;
      const stopped = () => (!moved && position !== null ? position : JSON.stringify({ ...place, day, slice: number }));
      while (day <= place.until) {
        if (left <= 0) return stopped();
        const step = await stepOf(day, today, deps, state);
        if (step === 'wait') return stopped();
        const { found, done, unsettled } = step === 'pass' ? { found: 0, done: true } : await dayAgain(day, left, bound, deps);
        moved ||= found > 0 || done;
        if (unsettled) return stopped();
        left -= Math.max(found, 1);
        if (done) day = addDays(day, 1);
      }
      return null;
    },
  };
}
