import { z } from 'zod';
import { activityQuerySchema, readQuery } from '../activity/query';
import { asOperator, type OperatorSettings } from '../../http/admin/auth';
import type { Clock } from '../../core/ports/clock';
import { readJsonBody, parseWith } from '../../http/body';
import { errorAnswer, type Answer } from '../../http/envelope';
import { badRequest, fail, ok, type Result } from '../../core/result';
import type { IncomingRequest } from '../../http/request';
import { readSite } from '../../core/sites/hit-site';
import type { Site } from '../../core/sites/sites';
import { linkId, LINKS_PK, type SharedLink, type SharedLinks } from '../../core/store/links';
import { hashPassword, newRef, newToken, tokenHash } from './secrets';

/** What the operator's link routes need: the links, the sites, the clock and the operator's access. */
export interface LinkAdminDeps {
  links: SharedLinks;
  sites: readonly Site[];
  clock: Clock;
  operator: OperatorSettings;
}

/** The body of POST /api/admin/links. */
export const linkBodySchema = z.strictObject({
  site: z.string().max(253),
  label: z.string().max(80, 'must be at most 80 characters').default(''),
  filters: z.array(z.string().max(300)).max(10, 'must be at most 10 filters').default([]),
  days: z.string().max(8).nullish(),
  expires_at: z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time with a zone' }).nullish(),
  password: z.string().min(8, 'must be at least 8 characters').max(200, 'must be at most 200 characters').nullish(),
});

/** A link as the list shows it: never its token, its keyed hash or its password's. */
export const linkRow = (link: SharedLink) => ({
  ref: link.ref,
  site: link.site,
  label: link.label,
  filters: link.filters,
  days: link.days,
  created_at: link.created_at,
  expires_at: link.expires_at,
  password: link.password !== null,
  revoked_at: link.revoked_at,
});

/** The fixed filters and period checked as the card reads them, so a link never holds what the card refuses. */
function checkedQuery(filters: readonly string[], days: string | null | undefined): Result<null> {
  const query = new URLSearchParams(filters.map((filter) => ['filter', filter]));
  if (days !== null && days !== undefined) query.set('days', days);
  const read = readQuery(activityQuerySchema, { query } as IncomingRequest);
  if (read.ok) return ok(null);
  return fail(
    badRequest(read.failure.issues!.map((issue) => ({ ...issue, path: issue.path.startsWith('filter') ? 'filters' : issue.path }))),
  );
}

async function createLink(request: IncomingRequest, deps: LinkAdminDeps): Promise<Answer> {
  const body = await readJsonBody(request, 4096, ['application/json']);
  if (!body.ok) return errorAnswer(body.failure);
  const asked = parseWith(linkBodySchema, body.value);
  if (!asked.ok) return errorAnswer(asked.failure);
  const site = readSite(asked.value.site, deps.sites);
  if (!site.ok) return errorAnswer(site.failure);
  const checked = checkedQuery(asked.value.filters, asked.value.days);
  if (!checked.ok) return errorAnswer(checked.failure);
  const now = deps.clock.now();
  const expires = asked.value.expires_at ? new Date(asked.value.expires_at) : null;
  if (expires !== null && expires <= now) return errorAnswer(badRequest([{ path: 'expires_at', message: 'must be in the future' }]));
  const token = newToken();
  const link: SharedLink = {
    id: linkId(tokenHash(deps.operator.hashKey, token)),
    pk: LINKS_PK,
    kind: 'shared-link',
    ref: newRef(),
    site: site.value,
    label: asked.value.label,
    filters: asked.value.filters,
    days: asked.value.days ?? null,
    created_at: now.toISOString(),
    expires_at: expires === null ? null : expires.toISOString(),
    password: asked.value.password ? await hashPassword(asked.value.password) : null,
    revoked_at: null,
  };
  await deps.links.create(link);
  // The token is answered once, here, and kept nowhere: a lost link is revoked and made again.
  return { status: 201, body: { token, link: linkRow(link) } };
}

async function revokeLink(request: IncomingRequest, deps: LinkAdminDeps): Promise<Answer> {
  const ref = request.params.ref ?? '';
  const read = /^[0-9a-f]{16}$/.test(ref) ? await deps.links.byRef(ref) : null;
  if (read === null) return errorAnswer({ status: 404, code: 'not_found', message: 'ref: no such link' });
  const revoked = { ...read.doc, revoked_at: read.doc.revoked_at ?? deps.clock.now().toISOString() };
  // A replace that lost a race to another revoke leaves the link revoked all the same.
  await deps.links.replace(revoked, read.etag);
  return { status: 200, body: { link: linkRow(revoked) } };
}

/** GET, POST /api/admin/links and DELETE /api/admin/links/{ref}: the operator lists, makes and revokes shared links. */
export function manageLinks(request: IncomingRequest, deps: LinkAdminDeps): Promise<Answer> {
  return asOperator(request, deps.operator, async () => {
    if (request.method === 'POST') return createLink(request, deps);
    if (request.method === 'DELETE') return revokeLink(request, deps);
    const links = await deps.links.list();
    return { status: 200, body: { links: links.sort((a, b) => (a.created_at < b.created_at ? 1 : -1)).map(linkRow) } };
  });
}
