import {
  INGEST_LIMITS,
  serverBatchSchema,
  serverHitSchema,
  servedByOf,
  type beaconBodySchema,
  type engagementSchema,
  type ServerHit,
} from '../contract/hits';
import type { z } from 'zod';

type BeaconBody = z.infer<typeof beaconBodySchema>;
type Engagement = z.infer<typeof engagementSchema>;
import { checkAt, enqueueClassified, ingest, type IngestDeps, type IngestOutcome } from './ingest';
import { secretsOfDays } from './day-secrets';
import type { SeenRequest } from './classify';
import { canonicalAddress } from '../core/identity/network';
import { forwardedSignals, type RequestSignals } from '../core/identity/signals';
import { cookieValue, hasOperatorCookie, isOperatorToken, OPERATOR_COOKIE } from '../core/identity/operator';
import { guessFailure, type Guesses } from '../core/guesses';
import { sameSecret } from '../core/identity/tokens';
import { badRequest, fail, ok, parseWith, type Result } from '../core/result';
import type { AnswerCookie } from '../core/cookie';
import { beaconScan, type BeaconSubjectDeps } from './subjects/beacon';
import { safeProps } from '../core/events/events';
import { hitSite, beaconSite } from '../core/sites/hit-site';
import type { Site } from '../core/sites/sites';
import { screenOf } from '../core/identity/device';
import { isInSite, siteHosts } from '../core/identity/referrer';

export interface ReceiveSettings {
  ingestKey: string;
  operatorKey: string;
  trustedProxyHops: number;
  /** Wrong ingest keys and wrong operator claims are counted here. */
  guesses: Guesses;
  hitMaxAgeDays: number;
  /** As the configuration names them now, the first the one a deployment counted before it had several. */
  sites: () => Promise<readonly Site[]>;
  /** Each site's subjects (where a beacon's scan is claimed) and its store's switch of person ids; else the first site's. */
  subjectsOf?: (site: string) => Promise<Pick<BeaconSubjectDeps, 'store' | 'switched'> | undefined>;
}

export type ReceiveDeps = IngestDeps & ReceiveSettings & { subjects: BeaconSubjectDeps };

export interface ServerHits {
  hits: ServerHit[];
  prefix: (i: number) => string;
}

/** One bad hit refuses the whole request. */
export function readServerHits(body: unknown): Result<ServerHits> {
  if (Array.isArray(body))
    return fail(badRequest([{ path: '(body)', message: 'is a JSON array: send one hit as an object, or many as {"hits": [...]}' }]));
  const isBatch = typeof body === 'object' && body !== null && !Array.isArray(body) && 'hits' in body;
  if (isBatch) {
    const batch = parseWith(serverBatchSchema, body);
    return batch.ok ? ok({ hits: batch.value.hits, prefix: (i) => `hits.${i}` }) : batch;
  }
  const single = parseWith(serverHitSchema, body);
  return single.ok ? ok({ hits: [single.value], prefix: () => '' }) : single;
}

/** An engagement is queued at its page load's instant (`since_ms` before it was sent), so it joins that page load's day. */
function engaged(engagement: Engagement | undefined, sent: Date): Pick<SeenRequest, 'at' | 'engagement'> {
  if (engagement === undefined) return { at: sent };
  const { ms, scroll, since_ms: since = 0 } = engagement;
  return { at: new Date(sent.getTime() - since), engagement: { ms, scroll } };
}

/** A referrer on the site's origins (or the beacon's page's) is a route change within the site; most hits carry none. */
function inSite(referrer: string | null | undefined, site: string, sites: readonly Site[], origin?: string): boolean {
  if (!referrer) return false;
  const origins = sites.find((one) => one.name === site)?.origins ?? [];
  return isInSite(referrer, siteHosts(origin === undefined ? origins : [...origins, origin]));
}

const field = (prefix: string, name: string) => (prefix ? `${prefix}.${name}` : name);

function signalsForwarded(headers: Record<string, unknown> | undefined): RequestSignals | null {
  return headers === undefined ? null : forwardedSignals(headers);
}

/** This runs on every hit, so the error prefix is written only for an error. */
function toSeen(
  hit: ServerHit,
  index: number,
  prefix: (i: number) => string,
  deps: Omit<ReceiveDeps, 'sites'> & { sites: readonly Site[] },
  now: Date,
): Result<SeenRequest> {
  const address = canonicalAddress(hit.address);
  if (address === null) return fail(badRequest([{ path: field(prefix(index), 'address'), message: 'is not an IPv4 or IPv6 address' }]));
  const site = hitSite(hit.site, deps.sites, field(prefix(index), 'site'));
  if (!site.ok) return site;
  const at = hit.at === undefined ? now : new Date(hit.at);
  if (hit.at !== undefined) {
    const checked = checkAt(at, now, deps.hitMaxAgeDays, INGEST_LIMITS.maxFutureMs, field(prefix(index), 'at'));
    if (!checked.ok) return checked;
  }
  return ok({
    ...engaged(hit.engagement, at),
    address,
    userAgent: hit.user_agent,
    path: hit.path,
    referrer: hit.referrer ?? null,
    inSite: inSite(hit.referrer, site.value, deps.sites),
    served_by: servedByOf(hit),
    // An event is a request of its visitor-day, never a page load; the schema refuses an engagement that says it is one.
    pageLoad: hit.event === undefined && hit.page_load,
    subject: hit.subject ?? null,
    operator: isOperatorToken(hit.operator, deps.operatorKey, deps.rules.hashKey),
    signals: signalsForwarded(hit.headers),
    site: site.value,
    ...(hit.event === undefined ? {} : { event: hit.event, ...(hit.props === undefined ? {} : { props: hit.props }) }),
  });
}

export async function receiveServerHits(read: ServerHits, deps: ReceiveDeps): Promise<Result<IngestOutcome>> {
  const now = deps.clock.now();
  const seen: SeenRequest[] = [];
  const { hits, prefix } = read;
  const sites = await deps.sites();
  for (let index = 0; index < hits.length; index += 1) {
    const one = toSeen(hits[index]!, index, prefix, { ...deps, sites }, now);
    if (!one.ok) return one;
    seen.push(one.value);
  }
  return ingest(seen, deps);
}

/** What the beacon's request said beside its body, read from its headers by the host. */
export interface BeaconSender {
  origin: string;
  address: string | null;
  userAgent: string;
  /** The Cookie header: the operator cookie, and the visitor's cookie in cookie mode. */
  cookie: string | null;
  /** The operator key, as `Authorization: Bearer` or `x-operator-key`. */
  presentedKey: string | null;
  signals: RequestSignals;
}

export interface Beacon {
  body: BeaconBody;
  sender: BeaconSender;
}

export interface BeaconTaken {
  body: IngestOutcome & { status?: 'new' | 'returning'; refused_props?: number };
  cookies: AnswerCookie[];
}

/** The key, the operator cookie or the snippet's mark: each one a beacon carries is a guess at the operator key. */
function operatorClaim(beacon: BeaconBody, sender: BeaconSender, deps: ReceiveDeps): { right: boolean } | null {
  const cookie = cookieValue(sender.cookie, OPERATOR_COOKIE);
  if (!sender.presentedKey && !beacon.operator && !cookie) return null;
  return {
    right:
      sameSecret(sender.presentedKey, deps.operatorKey) ||
      hasOperatorCookie(sender.cookie, deps.rules.hashKey) ||
      isOperatorToken(beacon.operator, deps.operatorKey, deps.rules.hashKey),
  };
}

/**
 * A beacon with an operator claim is answered as the site's own read is, right claim or wrong: `returning` when it
 * asks its status, and no visitor cookie. A wrong claim is counted as a wrong key, and past the free ones it is a 429.
 */
export async function receiveBeacon({ body: beacon, sender }: Beacon, deps: ReceiveDeps): Promise<Result<BeaconTaken>> {
  const sites = await deps.sites();
  const site = beaconSite(beacon.site, sender.origin, sites);
  if (!site.ok) return site;
  const claim = operatorClaim(beacon, sender, deps);
  const guessed = claim === null ? null : await deps.guesses.compared('operator', sender.address, claim.right);
  if (guessed?.outcome === 'waiting') return fail(guessFailure(guessed, ''));
  const props = beacon.props === undefined ? null : safeProps(beacon.props);
  const event = beacon.event;
  const loaded = event === undefined && beacon.engagement === undefined;
  const seen: SeenRequest = {
    ...engaged(beacon.engagement, deps.clock.now()),
    address: sender.address,
    userAgent: sender.userAgent,
    path: beacon.path,
    referrer: beacon.referrer ?? null,
    inSite: inSite(beacon.referrer, site.value, sites, sender.origin),
    served_by: 'site',
    pageLoad: loaded,
    subject: beacon.subject ?? null,
    ...(loaded && beacon.width !== undefined ? { screen: screenOf(beacon.width) } : {}),
    ...(event === undefined ? {} : { event, ...(props === null || Object.keys(props.props).length === 0 ? {} : { props: props.props }) }),
    operator: guessed?.outcome === 'right',
    signals: sender.signals,
    site: site.value,
  };
  const secrets = await secretsOfDays([seen], deps);
  if (!secrets.ok) return secrets;
  const secret = secrets.value[0];
  // A beacon is now, so only a clock past its day's end finds no secret.
  if (!secret) return ok({ body: { accepted: 0, ignored: 1 }, cookies: [] });
  const subjects = { ...deps.subjects, ...(await deps.subjectsOf?.(site.value)) };
  const scan = await beaconScan(sender.cookie, seen, secret.secret, beacon.status === true, { ...deps, subjects }, secret);
  if (!scan.ok) return scan;
  // The beacon was classified once, in its scan (its cookie's identity put in): that verdict is what is enqueued.
  const result = await enqueueClassified([scan.value.classified], deps);
  if (!result.ok) return result;
  const asked = scan.value.status;
  const status = asked === undefined ? {} : { status: claim === null ? asked : ('returning' as const) };
  // A prop that could carry a person is dropped from a beacon, and said so: a browser cannot be asked to send it again.
  const refused = props === null || props.refused === 0 ? {} : { refused_props: props.refused };
  return ok({ body: { ...result.value, ...status, ...refused }, cookies: claim === null ? scan.value.cookies : [] });
}
