import type { HttpHandler } from '@azure/functions';
import { badRequest, ok, type Result } from '../../shared/core/result';
import { sameSecret } from '../../shared/core/identity/tokens';
import type { Guesses } from '../../shared/core/guesses';
import { refusedGuess } from './admin/auth';
import { errorAnswer, type Answer } from './envelope';
import type { IncomingRequest } from './request';
import { receiveImport, type ImportDeps } from '../../shared/ingest/import/receive';
import { IMPORT_LIMITS, importBodySchema } from '../../shared/contract/import';
import { readServerHits, receiveBeacon, type Beacon, type ReceiveDeps } from '../../shared/ingest/receive';
import { readPlausibleEvent } from '../../shared/ingest/plausible-event';
import { presentedKey } from '../../shared/core/identity/operator';
import { signalsFrom } from '../../shared/core/identity/signals';
import { beaconBodySchema, INGEST_LIMITS } from '../../shared/contract/hits';
import { clientAddress } from '../../shared/core/identity/address';
import { corsHeaders, preflight, type CorsPolicy } from './cors';
import type { SiteBook } from '../site-root';
import { allOrigins, type Site } from '../../shared/core/sites/sites';
import type { Root } from '../composition';
import type { BeaconAcceptedAnswer, ImportAcceptedAnswer } from '../../shared/contract/ingest';
import { accepted, answerInput, type Reply } from './answer';
import { body, bodyWith, type Input } from './input';
import { incoming, response } from './request';

/** All sites together are no site to import into, so `*` is a 400. */
export async function importForSite(
  request: IncomingRequest,
  book: SiteBook,
  imports: ImportDeps,
  answer: (deps: ImportDeps) => Promise<Answer>,
): Promise<Answer> {
  const asked = request.query.get('site');
  const sites = await book.current();
  // A referrer on any site's origins, as the configuration names them now, is no source.
  const deps = { ...imports, allowedOrigins: allOrigins(sites.declared) };
  const first = sites.declared[0]!.name;
  if (asked === null || asked === '' || asked === first) return namingSite(await answer(deps), first);
  const site = sites.declared.some((one) => one.name === asked) ? sites.roots.get(asked) : undefined;
  if (site === undefined) return errorAnswer(badRequest([{ path: 'site', message: 'must be a site declared in SITES (not *)' }]));
  return namingSite(await answer({ ...deps, store: site.store, site: asked }), asked);
}

/** An import taken says the site it fills, so the command can say it too. */
const namingSite = (answer: Answer, site: string): Answer =>
  answer.status === 202 ? { ...answer, body: { ...(answer.body as object), site } } : answer;

/** What checks the ingest key: the receive and import use cases both carry it. */
export type IngestGate = { ingestKey: string; trustedProxyHops: number; guesses: Guesses };

/** A wrong key is a guess, counted against its address; a missing one is none. */
export async function ingestRead<T, V>(
  request: IncomingRequest,
  gate: IngestGate,
  input: Input<T>,
  run: (input: T) => Promise<Result<V>>,
  reply?: Reply<V>,
): Promise<Answer> {
  const key = request.header('x-ingest-key');
  if (key === null || key === '') return errorAnswer({ status: 401, code: 'unauthorized', message: 'x-ingest-key is missing.' });
  const address = clientAddress(request.header('x-forwarded-for'), gate.trustedProxyHops);
  const guessed = await gate.guesses.sent('ingest', address, sameSecret(key, gate.ingestKey));
  if (guessed.outcome !== 'right') return refusedGuess(guessed, 'x-ingest-key is wrong.');
  return answerInput(request, input, run, reply);
}

/** A route of the site's server: the ingest key checked, then the input read, then the use case. */
export function ingestRoute<T, V>(
  input: Input<T>,
  run: (input: T, root: Root) => Promise<Result<V>>,
  reply?: Reply<V>,
): (root: Root) => HttpHandler {
  return (root) => async (request) =>
    response(await ingestRead(incoming(request), root.receive, input, (value) => run(value, root), reply));
}

/** POST /api/import: the ingest key, then the import's body, then the use case; the route and the tests call it. */
export const answerImport = (request: IncomingRequest, deps: ImportDeps): Promise<Answer> =>
  ingestRead(
    request,
    deps,
    body(importBodySchema, IMPORT_LIMITS.maxBodyBytes, ['application/json']),
    (asked) => receiveImport(asked, deps),
    // The site is named by importForSite, which knows it.
    accepted<Omit<ImportAcceptedAnswer, 'site'>>,
  );

export const importRoute =
  (root: Root): HttpHandler =>
  async (request) => {
    const asked = incoming(request);
    return response(await importForSite(asked, root.sites, root.imports, (deps) => answerImport(asked, deps)));
  };

/** POST /api/hits: one hit or a batch, every hit checked before any is taken. */
export const serverHits = bodyWith(readServerHits, INGEST_LIMITS.maxHitsBodyBytes, ['application/json']);

export function beaconCors(sites: readonly Site[]): CorsPolicy {
  return { allowedOrigins: allOrigins(sites), methods: ['POST', 'OPTIONS'], allowHeaders: ['content-type'], credentials: true };
}

const beaconBody = body(beaconBodySchema, INGEST_LIMITS.maxBeaconBodyBytes, ['application/json', 'text/plain']);

type BeaconInput = Input<Beacon['body']>;

/** The body, and the few headers a beacon is judged by, as values: the address is the connection's, never the body's. */
async function beaconInput(
  request: IncomingRequest,
  origin: string,
  trustedProxyHops: number,
  input: BeaconInput,
): Promise<Result<Beacon>> {
  const read = await input(request);
  if (!read.ok) return read;
  const header = (name: string) => request.header(name);
  return ok({
    body: read.value,
    sender: {
      origin,
      address: clientAddress(header('x-forwarded-for'), trustedProxyHops),
      userAgent: header('user-agent') ?? '',
      cookie: header('cookie'),
      presentedKey: presentedKey(header),
      signals: signalsFrom(header),
    },
  });
}

export const answerBeacon = (request: IncomingRequest, deps: ReceiveDeps): Promise<Answer> =>
  answerBrowser(request, deps, () => beaconBody);

/** Plausible's Events API, read as the beacon it is, under the beacon's origin, bot and privacy rules. */
export const answerPlausibleEvent = (request: IncomingRequest, deps: ReceiveDeps): Promise<Answer> =>
  answerBrowser(request, deps, (sites) =>
    bodyWith((value) => readPlausibleEvent(value, sites), INGEST_LIMITS.maxBeaconBodyBytes, ['application/json', 'text/plain']),
  );

/** The origins allowed are the sites' as the configuration names them now. */
async function answerBrowser(
  request: IncomingRequest,
  deps: ReceiveDeps,
  inputOf: (sites: readonly Site[]) => BeaconInput,
): Promise<Answer> {
  const sites = await deps.sites();
  const input = inputOf(sites);
  const policy = beaconCors(sites);
  if (request.method === 'OPTIONS') return preflight(request, policy);
  const cors = corsHeaders(request, policy);
  if (cors === null) {
    return errorAnswer({
      status: 403,
      code: 'origin_not_allowed',
      message: "origin: this page's origin is not one of the origins of a site counted here",
    });
  }
  // A browser names the origin on every POST, sendBeacon's too, so a beacon without one is refused.
  const origin = request.header('origin');
  if (origin === null) {
    return errorAnswer({
      status: 403,
      code: 'origin_required',
      message:
        "origin: a beacon comes from a page of a site counted here, whose browser names the page's origin; a server reports to POST /api/hits with x-ingest-key",
    });
  }
  const read = await beaconInput(request, origin, deps.trustedProxyHops, input);
  if (!read.ok) return errorAnswer(read.failure, cors);
  const taken = await receiveBeacon(read.value, deps);
  if (!taken.ok) return errorAnswer(taken.failure, cors);
  const body: BeaconAcceptedAnswer = taken.value.body;
  return { status: 202, body, headers: cors, cookies: taken.value.cookies };
}

export const plausibleEventRoute =
  (root: Root): HttpHandler =>
  async (request) =>
    response(await answerPlausibleEvent(incoming(request), root.receive));

export const beaconRoute =
  (root: Root): HttpHandler =>
  async (request) =>
    response(await answerBeacon(incoming(request), root.receive));
