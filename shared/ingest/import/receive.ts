import { firstKeptDay } from '../../core/store/first-day';
import { addDays } from '../../core/days';
import { errorLine } from '../../core/errors';
import { classify, type Classified, type IdentityRules, type SeenRequest } from '../classify';
import type { PersonIds } from '../../core/identity/person-id';
import { withPersonIds } from '../persons';
import { encodeMessage, toMessages, type QueuedHit } from '../../core/message';
import { badRequest, fail, ok, type Failure, type Result } from '../../core/result';
import { canonicalAddress } from '../../core/identity/network';
import { keptPath } from '../../core/identity/paths';
import { utcDay } from '../../core/identity/tokens';
import { boundedMap } from '../../core/bounded-map';
import type { Clock } from '../../core/ports/clock';
import type { Guesses } from '../../core/guesses';
import type { HitQueue } from '../../core/ports/queue';
import type { Facts, ImportLedgers, LandedImports, VisitorsSummaries, VisitsSummaries } from '../../core/store';
import { FACT_TTL_SECONDS, factId, type Fact } from '../../core/store/facts';
import { IMPORT_LEDGER_ID } from '../../core/store/imports';
import { VISITORS_PK } from '../../core/store/visitors';
import { keyedUuid } from './ids';
import { landedNote } from '../../core/store/landed-note';
import type { importBodySchema, ImportedDay, ImportHit } from '../../contract/import';
import { servedByOf } from '../../contract/hits';
import type { z } from 'zod';
import { importedTotals } from './totals';
import type { DaySecretKeeper } from '../day-secrets';

/** The most a request's `at` may be ahead of the app's clock, as on POST /api/hits. */
const MAX_FUTURE_MS = 5 * 60 * 1000;

/** The earliest time a log line may have: no web server log is older, and a day before it is no day the count knows. */
const EARLIEST = Date.parse('1990-01-01T00:00:00Z');

/** Redirects: the client's next request is the page it was sent to, which the log holds on a line of its own. */
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

const DAYS_AT_ONCE = 8;

export interface ImportStore {
  importLedger: ImportLedgers;
  visitorsSummary: VisitorsSummaries;
  visits: VisitsSummaries;
  facts: Pick<Facts, 'create'>;
  landed: Pick<LandedImports, 'create' | 'has'>;
}

export interface ImportDeps {
  rules: IdentityRules;
  secrets: DaySecretKeeper;
  persons: PersonIds;
  queue: HitQueue;
  clock: Clock;
  store: ImportStore;
  ingestKey: string;
  trustedProxyHops: number;
  /** A wrong ingest key is counted here. */
  guesses: Guesses;
  /** ALLOWED_ORIGINS: a referrer from one of them is navigation inside the site, not a source. */
  allowedOrigins: readonly string[];
  /** Absent for the first declared site, whose hits name none. */
  site?: string;
}

export interface ImportOutcome {
  accepted: number;
  already_kept: number;
  ignored: number;
  skipped: number;
  until: string;
  /** The first day counted live, as the ledger keeps it. */
  live_from: string;
}

const unavailable = (what: string, error: unknown): Failure => ({
  status: 503,
  code: 'store_unavailable',
  message: `the store cannot answer right now (${what}: ${errorLine(error)}); nothing of this request was queued, retry later`,
});

/** The ledger is written before the first hit is queued, so every later batch reads the same first live day. */
async function windowOf(
  store: ImportStore,
  today: string,
  now: Date,
  given: string | undefined,
  create: boolean,
): Promise<{ live_from: string; until: string }> {
  const read = await store.importLedger.read();
  let liveFrom = read?.doc.live_from;
  if (liveFrom === undefined) {
    const first = await firstKeptDay(store);
    liveFrom = first !== null && first < today ? first : today;
    if (create) {
      const made = await store.importLedger.create({
        id: IMPORT_LEDGER_ID,
        pk: VISITORS_PK,
        kind: 'import-ledger',
        live_from: liveFrom,
        since: now.toISOString(),
      });
      if (made === 'exists') liveFrom = (await store.importLedger.read())?.doc.live_from ?? liveFrom;
    }
  }
  return { live_from: liveFrom, until: given ?? addDays(liveFrom, -1) };
}

/** A referrer from one of these hosts is not a source. */
function siteHosts(origins: readonly string[]): Set<string> {
  const hosts = new Set<string>();
  for (const origin of origins) {
    try {
      hosts.add(bareHost(new URL(origin).hostname));
    } catch {
      // Settings are validated at start-up; an origin that is not a URL names no host.
    }
  }
  return hosts;
}

const bareHost = (host: string) =>
  host
    .toLowerCase()
    .replace(/:\d+$/, '')
    .replace(/^\[|\]$/g, '')
    .replace(/^www\./, '');

const hostOf = (url: string): string | null => {
  try {
    return bareHost(new URL(url).hostname);
  } catch {
    return null;
  }
};

function toSeen(
  hit: ImportHit,
  index: number,
  now: Date,
  until: string,
  site: ReadonlySet<string>,
  siteName?: string,
): Result<{ seen: SeenRequest } | { not: 'skipped' | 'ignored' }> {
  const field = (name: string) => `hits.${index}.${name}`;
  const address = canonicalAddress(hit.address);
  if (address === null) return fail(badRequest([{ path: field('address'), message: 'is not an IPv4 or IPv6 address' }]));
  const at = new Date(hit.at);
  if (at.getTime() > now.getTime() + MAX_FUTURE_MS)
    return fail(badRequest([{ path: field('at'), message: 'is more than five minutes in the future' }]));
  if (at.getTime() < EARLIEST) return fail(badRequest([{ path: field('at'), message: 'is before 1990' }]));
  if (utcDay(at) > until) return ok({ not: 'skipped' });
  const method = (hit.method ?? 'GET').toUpperCase();
  if (method !== 'GET' && method !== 'HEAD') return ok({ not: 'ignored' });
  if (hit.status !== undefined && REDIRECTS.has(hit.status)) return ok({ not: 'ignored' });
  const pageLoad = method === 'GET' && (hit.status === undefined || (hit.status >= 200 && hit.status < 400));
  const from = hit.referrer ? hostOf(hit.referrer) : null;
  const inside = from !== null && (site.has(from) || (hit.host ? bareHost(hit.host) === from : false));
  return ok({
    seen: {
      at,
      address,
      userAgent: hit.user_agent ?? '',
      agentUnlogged: hit.user_agent === undefined || hit.user_agent === null,
      // Any length is taken, as POST /api/hits takes it, and kept as keptPath cuts it.
      path: keptPath(hit.path),
      referrer: inside ? null : (hit.referrer ?? null),
      served_by: servedByOf(hit),
      pageLoad,
      subject: null,
      operator: false,
      signals: null,
      ...(siteName === undefined ? {} : { site: siteName }),
    },
  });
}

const lineOf = (hit: ImportHit, seen: SeenRequest) =>
  [
    seen.at.toISOString(),
    seen.address,
    hit.user_agent ?? '\u0000',
    hit.method ?? '',
    hit.path,
    hit.status ?? '',
    hit.referrer ?? '',
    hit.host ?? '',
    servedByOf(hit),
    // A site but the first is in the line, so the same lines imported for two sites are two imports.
    ...(seen.site === undefined ? [] : [seen.site]),
  ].join('\u001f');

interface ImportMessage {
  id: string;
  hits: number;
  text: string;
}

/** Ids are made from the lines, so a batch sent again is the same messages. */
function messagesOf(counted: ReadonlyArray<{ hit: QueuedHit; line: string }>, key: string): ImportMessage[] {
  const messages = toMessages(
    counted.map((one) => one.hit),
    () => '',
    Number.POSITIVE_INFINITY,
  );
  let next = 0;
  return messages.map((message) => {
    const lines = counted.slice(next, next + message.hits.length).map((one) => one.line);
    next += message.hits.length;
    const id = keyedUuid(key, `import-message|${lines.join('\u001e')}`);
    return { id, hits: message.hits.length, text: encodeMessage({ ...message, id }) };
  });
}

/** How many landed notes are read at once: point reads, one a message. */
const NOTES_AT_ONCE = 8;

async function keptBefore(messages: readonly ImportMessage[], store: ImportStore): Promise<Set<string>> {
  const kept = new Set<string>();
  await boundedMap(messages, NOTES_AT_ONCE, async (message) => {
    if (await store.landed.has(message.id)) kept.add(message.id);
  });
  return kept;
}

/** A day's own secret while it is kept, so imported and live hits of a day are one visit; the import secret's after. */
async function importSecrets(ats: readonly Date[], keeper: DaySecretKeeper): Promise<Map<string, string>> {
  const days = [...new Set(ats.map((at) => keeper.dayOf(at)))];
  const secrets = await Promise.all(days.map(async (day) => (await keeper.secretOf(day)) ?? keeper.importedSecretOf(day)));
  return new Map(days.map((day, index) => [day, secrets[index]!] as const));
}

async function importHits(
  hits: readonly ImportHit[],
  deps: ImportDeps,
  now: Date,
  until: string,
): Promise<Result<Omit<ImportOutcome, 'until' | 'live_from'>>> {
  const site = siteHosts(deps.allowedOrigins);
  const seen: Array<{ hit: ImportHit; seen: SeenRequest }> = [];
  let ignored = 0;
  let skipped = 0;
  for (const [index, hit] of hits.entries()) {
    const read = toSeen(hit, index, now, until, site, deps.site);
    if (!read.ok) return read;
    if (!('not' in read.value)) seen.push({ hit, seen: read.value.seen });
    else if (read.value.not === 'skipped') skipped += 1;
    else ignored += 1;
  }
  let secrets: Map<string, string>;
  try {
    secrets = await importSecrets(
      seen.map((one) => one.seen.at),
      deps.secrets,
    );
  } catch (error) {
    return fail(unavailable("the day's secret", error));
  }
  const classified: Classified[] = await withPersonIds(
    seen.map((one) => one.seen),
    seen.map((one) => classify(one.seen, deps.rules, secrets.get(deps.secrets.dayOf(one.seen.at))!)),
    deps.persons,
  );
  const counted: Array<{ hit: QueuedHit; line: string }> = [];
  classified.forEach((result, index) => {
    if (!result.counted) ignored += 1;
    else counted.push({ hit: result.hit, line: lineOf(seen[index]!.hit, seen[index]!.seen) });
  });
  if (counted.length === 0) return ok({ accepted: 0, already_kept: 0, ignored, skipped });
  const messages = messagesOf(counted, deps.rules.hashKey);
  let kept: Set<string>;
  try {
    kept = await keptBefore(messages, deps.store);
  } catch (error) {
    return fail(unavailable('the landed notes', error));
  }
  const fresh = messages.filter((message) => !kept.has(message.id));
  if (fresh.length > 0) {
    const sent = await deps.queue.sendAll(fresh.map((message) => message.text));
    if (!sent.ok)
      return fail({
        status: 503,
        code: 'queue_unavailable',
        message: 'the imports queue cannot take hits right now; nothing was queued, retry later',
      });
  }
  const queued = fresh.reduce((sum, message) => sum + message.hits, 0);
  return ok({ accepted: queued, already_kept: counted.length - queued, ignored, skipped });
}

/** The id is made from the day and its totals, so the same totals sent again are the same fact. */
async function importDays(
  days: readonly ImportedDay[],
  deps: ImportDeps,
  until: string,
): Promise<Omit<ImportOutcome, 'until' | 'live_from'>> {
  const taken = days.filter((one) => one.day <= until);
  let alreadyKept = 0;
  await boundedMap(taken, DAYS_AT_ONCE, async (one) => {
    const totals = importedTotals(one);
    const message = keyedUuid(deps.rules.hashKey, `import-day|${one.day}|${JSON.stringify(totals)}`);
    const fact: Fact = {
      id: factId(message),
      pk: one.day,
      kind: 'fact',
      day: one.day,
      message,
      hits: 0,
      visitor_days: [],
      hours: [],
      scans: [],
      imported: totals,
      ttl: FACT_TTL_SECONDS,
    };
    if ((await deps.store.facts.create(fact)) === 'exists') alreadyKept += 1;
    await deps.store.landed.create(landedNote(message, [one.day]));
  });
  return { accepted: taken.length - alreadyKept, already_kept: alreadyKept, ignored: 0, skipped: days.length - taken.length };
}

/** A queue of its own, so millions of imported lines never wait in front of a live hit. */
export async function receiveImport(body: z.infer<typeof importBodySchema>, deps: ImportDeps): Promise<Result<ImportOutcome>> {
  const { hits = [], days = [], until: given } = body;
  const now = deps.clock.now();
  const today = utcDay(now);
  if (given !== undefined && given > today) return fail(badRequest([{ path: 'until', message: 'is after today' }]));
  let window: { live_from: string; until: string };
  try {
    window = await windowOf(deps.store, today, now, given, hits.length > 0 || days.length > 0);
  } catch (error) {
    return fail(unavailable('the import ledger', error));
  }
  if (days.length > 0) {
    try {
      return ok({ ...(await importDays(days, deps, window.until)), ...window });
    } catch (error) {
      return fail(unavailable('the imported days', error));
    }
  }
  const result = await importHits(hits, deps, now, window.until);
  if (!result.ok) return result;
  return ok({ ...result.value, ...window });
}
