import { randomBytes } from 'node:crypto';
import { addDays } from '../core/days';
import { errorLine } from '../core/errors';
import type { Clock } from '../core/ports/clock';
import type { Logger } from '../core/ports/logger';
import { fail, ok, type Result } from '../core/result';
import {
  daySecretId,
  IMPORT_SECRET_IDLE_MS,
  IMPORT_SECRET_RENEW_MS,
  IMPORT_SECRET_TTL,
  importSecretId,
  SECRETS_PK,
  type DaySecret,
  type DaySecrets,
  type ImportSecret,
} from '../core/store/day-secrets';

/** A day ends last in the zone furthest behind UTC (UTC−12). */
const LAST_ZONE_MS = 12 * 3_600_000;

/** Past this instant no hit of `day` is taken: the day has ended everywhere and `lateDays` more have passed. */
export function secretEndsAt(day: string, lateDays: number): number {
  return Date.parse(`${addDays(day, 1 + lateDays)}T00:00:00Z`) + LAST_ZONE_MS;
}

export interface DaySecretDeps {
  secrets: DaySecrets;
  clock: Clock;
  /** HIT_MAX_AGE_DAYS. */
  lateDays: number;
  /** The local day an instant falls on for a site, and for all sites together when it is kept there too. */
  dayOf: HitDaysOf;
  /** 32 random bytes as hex when not given; tests make them from the day so their tokens repeat. */
  newSecret?: (day: string) => string;
}

/** A hit's local day on its site, and on all sites together when their zone gives another. */
export interface HitDays {
  day: string;
  all?: string;
}

export type HitDaysOf = (at: Date, site: string | undefined) => Promise<HitDays>;

/** What a hit's tokens are made with: its day's secret, and all sites' day and secret when that day is another. */
export interface TokenDays {
  day: string;
  secret: string;
  all?: { day: string; secret: string };
}

/** Each day's secret, read from the store once a process and kept in memory for its day. */
export interface DaySecretKeeper {
  dayOf: HitDaysOf;
  /** Null once the day can receive no more hits. Throws when the store cannot answer. */
  secretOf(day: string): Promise<string | null>;
  /** For an import of a day whose own secret is gone: that day's import secret, renewed while imports use it. */
  importedSecretOf(day: string): Promise<string>;
}

const randomSecret = () => randomBytes(32).toString('hex');

/** Seconds Cosmos DB keeps the secret should the timer not delete it: a day past its end. */
const ttlOf = (day: string, lateDays: number, now: Date) => Math.ceil((secretEndsAt(day, lateDays) - now.getTime()) / 1000) + 86_400;

/** Create, and on 409 read the one another instance made first, so every instance holds the same secret. */
async function madeOrRead(doc: DaySecret, secrets: DaySecrets): Promise<string | null> {
  const kept = await secrets.read(doc.id);
  if (kept !== null) return kept.secret;
  if ((await secrets.create(doc)) === 'created') return doc.secret;
  return (await secrets.read(doc.id))?.secret ?? null;
}

function daySecret(day: string, deps: DaySecretDeps): DaySecret {
  return {
    id: daySecretId(day),
    pk: SECRETS_PK,
    kind: 'day-secret',
    day,
    secret: (deps.newSecret ?? randomSecret)(day),
    ttl: ttlOf(day, deps.lateDays, deps.clock.now()),
  };
}

/** An import secret as an instance holds it: the secret, and when it was last renewed in the store. */
interface HeldImport {
  secret: string;
  usedAt: number;
}

/** The day's import secret as kept, or one made now (on 409, the one another instance made first). */
async function importHeld(day: string, deps: DaySecretDeps): Promise<HeldImport> {
  const id = importSecretId(day);
  const kept = async () => {
    const found = await deps.secrets.read(id);
    return found?.kind === 'import-secret' ? { secret: found.secret, usedAt: Date.parse(found.used_at) } : null;
  };
  const held = await kept();
  if (held !== null) return held;
  const now = deps.clock.now();
  const doc: ImportSecret = {
    id,
    pk: SECRETS_PK,
    kind: 'import-secret',
    day,
    secret: (deps.newSecret ?? randomSecret)(`import|${day}`),
    used_at: now.toISOString(),
    ttl: IMPORT_SECRET_TTL,
  };
  if ((await deps.secrets.create(doc)) === 'created') return { secret: doc.secret, usedAt: now.getTime() };
  const made = await kept();
  if (made === null) throw new Error('the import secret was deleted while it was made');
  return made;
}

/** Renewed in the store at most hourly while used; one the timer deleted is made again, for the imports from now on. */
async function importSecretOf(day: string, imports: Map<string, HeldImport>, deps: DaySecretDeps): Promise<string> {
  const now = deps.clock.now().getTime();
  for (const [kept, held] of imports) if (now - held.usedAt >= IMPORT_SECRET_IDLE_MS) imports.delete(kept);
  let held = imports.get(day) ?? (await importHeld(day, deps));
  if (now - held.usedAt >= IMPORT_SECRET_RENEW_MS) {
    const renewed = await deps.secrets.renew(importSecretId(day), new Date(now).toISOString(), IMPORT_SECRET_TTL);
    held = renewed === 'renewed' ? { ...held, usedAt: now } : await importHeld(day, deps);
  }
  imports.set(day, held);
  return held.secret;
}

/** A promise held until it fails, so a store that failed is asked again by the next hit. */
function heldIn(held: Map<string, Promise<string | null>>, key: string, make: () => Promise<string | null>): Promise<string | null> {
  let secret = held.get(key);
  if (secret === undefined) {
    secret = make();
    held.set(key, secret);
    secret.catch(() => held.delete(key));
  }
  return secret;
}

export function daySecretKeeper(deps: DaySecretDeps): DaySecretKeeper {
  const held = new Map<string, Promise<string | null>>();
  const imports = new Map<string, HeldImport>();
  return {
    dayOf: deps.dayOf,
    secretOf(day) {
      const now = deps.clock.now().getTime();
      for (const kept of held.keys()) if (secretEndsAt(kept, deps.lateDays) <= now) held.delete(kept);
      if (secretEndsAt(day, deps.lateDays) <= now) return Promise.resolve(null);
      return heldIn(held, day, () => madeOrRead(daySecret(day, deps), deps.secrets));
    },
    importedSecretOf: (day) => importSecretOf(day, imports, deps),
  };
}

/** For each request its days and their secrets (null once a day can receive no more hits), or a 503 that names nothing of the store (it is logged). */
export async function secretsOfDays(
  requests: ReadonlyArray<{ at: Date; site?: string }>,
  deps: { secrets: DaySecretKeeper; logger: Logger },
): Promise<Result<Array<TokenDays | null>>> {
  try {
    const days = await Promise.all(requests.map((request) => deps.secrets.dayOf(request.at, request.site)));
    const wanted = [...new Set(days.flatMap((day) => (day.all === undefined ? [day.day] : [day.day, day.all])))];
    const secrets = new Map(await Promise.all(wanted.map(async (day) => [day, await deps.secrets.secretOf(day)] as const)));
    return ok(days.map((day) => tokenDays(day, secrets)));
  } catch (error) {
    deps.logger.warn("the day's secret could not be read; the hits were refused", { reason: errorLine(error) });
    return fail({ status: 503, code: 'store_unavailable', message: 'the hits cannot be taken right now; nothing was kept, retry later' });
  }
}

function tokenDays(days: HitDays, secrets: ReadonlyMap<string, string | null>): TokenDays | null {
  const secret = secrets.get(days.day);
  if (!secret) return null;
  if (days.all === undefined) return { day: days.day, secret };
  const all = secrets.get(days.all);
  return all ? { day: days.day, secret, all: { day: days.all, secret: all } } : null;
}

/** Deletes the secret of every day that can receive no more hits; run by the timer. Answers the days deleted. */
export async function forgetDaySecrets(deps: Pick<DaySecretDeps, 'secrets' | 'clock' | 'lateDays'>): Promise<string[]> {
  const now = deps.clock.now().getTime();
  const ended = (await deps.secrets.days()).filter((day) => secretEndsAt(day, deps.lateDays) <= now).sort();
  for (const day of ended) await deps.secrets.remove(daySecretId(day));
  return ended;
}

/** Deletes every import secret no import has used for IMPORT_SECRET_IDLE_MS; run by the timer. Answers how many. */
export async function forgetImportSecrets(deps: Pick<DaySecretDeps, 'secrets' | 'clock'>): Promise<number> {
  const now = deps.clock.now().getTime();
  // One kept before renewals has no `used_at`: it is idle.
  const idle = (await deps.secrets.imports()).filter(
    (kept) => now - Date.parse(kept.used_at ?? '1970-01-01T00:00:00Z') >= IMPORT_SECRET_IDLE_MS,
  );
  for (const kept of idle) await deps.secrets.remove(kept.id);
  return idle.length;
}
