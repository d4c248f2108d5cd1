import type { TokenDays } from '../day-secrets';
import { classify, isSelf, type Classified, type IdentityRules, type SeenRequest } from '../classify';
import type { AnswerCookie } from '../../core/cookie';
import { fail, ok, type Result } from '../../core/result';
import type { Logger } from '../../core/ports/logger';
import { newVisitorCookie, presentedCookie, visitorCookieHash, VISITOR_COOKIE_MAX_AGE } from './cookie';
import { VISITOR_COOKIES_PK, visitorCookieId, type SubjectsStore, type VisitorCookieLink } from '../../core/store/subjects';
import { claimedVisitor } from '../../core/subjects/visitor';
import { errorLine } from '../../core/errors';
import type { PersonIds } from '../../core/identity/person-id';
import { withPersonIds } from '../persons';
import type { QueuedHit } from '../../core/message';

/** How a visitor is told apart: the person hash (no cookie), or a first-party cookie where the site has consent. */
export type IdentityMode = 'hash' | 'cookie';

/** The site store's switch of person ids, so a scan is claimed under the derived id once it has begun. */
export interface ClaimSwitch {
  /** Once true it stays true. */
  begun(): Promise<boolean>;
  derive(old: string): Promise<string>;
}

export interface BeaconSubjectDeps {
  mode: IdentityMode;
  store: SubjectsStore;
  switched?: ClaimSwitch;
}

type Deps = { rules: IdentityRules; persons: PersonIds; logger: Logger; subjects: BeaconSubjectDeps };

export interface BeaconScan {
  seen: SeenRequest;
  classified: Classified;
  cookies: AnswerCookie[];
  status?: 'new' | 'returning';
}

type Identified = Omit<BeaconScan, 'status'>;

const warn = (deps: Deps, message: string, error?: unknown) =>
  deps.logger.warn(message, { function: 'ingest-beacon', ...(error === undefined ? {} : { reason: errorLine(error) }) });

/**
 * The site's own request carries no person, cookie or not. The hit says its person is derived only when the link
 * does, so keep-hits derives a link's old id once, whatever the ingest derived (docs/design.md, Identity).
 */
function asVisitor(seen: SeenRequest, classified: Classified, visitor: string, derived: boolean): Identified {
  const identified = { seen: { ...seen, visitor }, cookies: [] };
  if (!classified.counted || classified.hit.self) return { ...identified, classified };
  const { person_derived: _ingested, ...hit } = classified.hit;
  return { ...identified, classified: { counted: true, hit: { ...hit, person: visitor, ...(derived ? { person_derived: true } : {}) } } };
}

/** A new cookie is linked to the person hash, so a browser that blocks cookies is not new on every scan. */
async function identified(cookieHeader: string | null, seen: SeenRequest, classified: Classified, deps: Deps): Promise<Identified> {
  const unchanged = { seen, classified, cookies: [] };
  if (deps.subjects.mode !== 'cookie') return unchanged;
  // The verdict of a counted request says whether it is the site's own; an uncounted one (an asset) is asked.
  if (classified.counted ? classified.hit.self : isSelf(seen, deps.rules)) return unchanged;
  const presented = presentedCookie(cookieHeader);
  if (presented.kind === 'uuid') {
    const hash = visitorCookieHash(deps.rules.hashKey, presented.uuid);
    try {
      const link = await deps.subjects.store.cookies.read(hash);
      return asVisitor(seen, classified, link?.identity ?? hash, link?.derived === true);
    } catch (error) {
      warn(deps, 'the visitor cookie could not be looked up; this hit is counted under the person hash', error);
      return unchanged;
    }
  }
  if (presented.kind === 'malformed') warn(deps, 'a malformed visitor cookie was refused and treated as absent; a new one is offered');
  if (!classified.counted || classified.hit.person === null) return unchanged;
  const cookie = newVisitorCookie();
  const link: VisitorCookieLink = {
    id: visitorCookieId(visitorCookieHash(deps.rules.hashKey, cookie.value)),
    pk: VISITOR_COOKIES_PK,
    kind: 'visitor-cookie',
    identity: classified.hit.person,
    ttl: VISITOR_COOKIE_MAX_AGE,
    ...(classified.hit.person_derived === true ? { derived: true as const } : {}),
  };
  try {
    await deps.subjects.store.cookies.create(link);
    return { seen, classified, cookies: [cookie] };
  } catch (error) {
    warn(deps, 'the visitor cookie could not be linked; none is offered this time', error);
    return unchanged;
  }
}

/**
 * Once the switch has begun, an old id is claimed under its derived id, after a look for a document still under the old
 * one, which the move takes over; a derived id, sent once every store moved, has no old document left.
 */
async function claimed(subject: string, hit: QueuedHit & { person: string }, deps: Deps): Promise<'new' | 'returning'> {
  const { store, switched } = deps.subjects;
  const moving = hit.person_derived !== true && switched !== undefined && (await switched.begun());
  if (moving && (await store.visitors.read(subject, hit.person)) !== null) return 'returning';
  const person = moving ? await switched.derive(hit.person) : hit.person;
  return (await store.visitors.create(claimedVisitor(subject, person, hit.at))) === 'created' ? 'new' : 'returning';
}

/** A create that finds the document (409) is a returning visitor, so of two scans at once exactly one is new. */
async function statusOf(seen: SeenRequest, classified: Classified, deps: Deps): Promise<Result<'new' | 'returning'>> {
  if (seen.subject === null || !classified.counted || classified.hit.person === null) return ok('returning');
  try {
    return ok(await claimed(seen.subject, { ...classified.hit, person: classified.hit.person }, deps));
  } catch (error) {
    warn(deps, 'the status of a scan could not be decided; nothing was enqueued', error);
    return fail({
      status: 503,
      code: 'store_unavailable',
      message: 'status: the store cannot say new or returning right now; nothing was kept, retry later',
    });
  }
}

/** Runs before anything is enqueued, and its verdict is the one to enqueue. */
export async function beaconScan(
  cookieHeader: string | null,
  seen: SeenRequest,
  daySecret: string,
  askStatus: boolean,
  deps: Deps,
  days?: TokenDays,
): Promise<Result<BeaconScan>> {
  const [classified] = await withPersonIds([seen], [classify(seen, deps.rules, daySecret, days)], deps.persons);
  const visitor = await identified(cookieHeader, seen, classified!, deps);
  if (!askStatus) return ok(visitor);
  const status = await statusOf(visitor.seen, visitor.classified, deps);
  return status.ok ? ok({ ...visitor, status: status.value }) : status;
}
