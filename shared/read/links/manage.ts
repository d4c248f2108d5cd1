import { z } from 'zod';
import type { linkBodySchema } from '../../contract/queries';
import { activityQuerySchema } from '../../contract/queries';
import type { Clock } from '../../core/ports/clock';
import { badRequest, fail, fieldIssues, ok, type Result } from '../../core/result';
import { hitSite, readSite } from '../../core/sites/hit-site';
import type { Site } from '../../core/sites/sites';
import { linkId, LINKS_PK, type SharedLink, type SharedLinks } from '../../core/store/links';
import { hashPassword, newRef, newToken, tokenHash } from './secrets';
import type { SharedLinkMadeAnswer, SharedLinkRevokedAnswer, SharedLinkRowAnswer, SharedLinksAnswer } from '../../contract/links';

export interface LinkAdminDeps {
  links: SharedLinks;
  /** As the configuration names them now. */
  sites: () => Promise<readonly Site[]>;
  clock: Clock;
  hashKey: string;
}

/** Never its token, its keyed hash or its password's. */
export const linkRow = (link: SharedLink): SharedLinkRowAnswer => ({
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
  const query = { ...(filters.length > 0 ? { filter: [...filters] } : {}), ...(days !== null && days !== undefined ? { days } : {}) };
  const read = activityQuerySchema.safeParse(query);
  if (read.success) return ok(null);
  return fail(
    badRequest(
      fieldIssues(read.error.issues).map((issue) => ({ ...issue, path: issue.path.startsWith('filter') ? 'filters' : issue.path })),
    ),
  );
}

export async function createLink(asked: z.infer<typeof linkBodySchema>, deps: LinkAdminDeps): Promise<Result<SharedLinkMadeAnswer>> {
  // Without a site, the only one declared (a deployment without SITES names its site nowhere else).
  const sites = await deps.sites();
  const site = asked.site === undefined ? hitSite(undefined, sites, 'site') : readSite(asked.site, sites);
  if (!site.ok) return site;
  const checked = checkedQuery(asked.filters, asked.days);
  if (!checked.ok) return checked;
  const now = deps.clock.now();
  const expires = asked.expires_at ? new Date(asked.expires_at) : null;
  if (expires !== null && expires <= now) return fail(badRequest([{ path: 'expires_at', message: 'must be in the future' }]));
  const token = newToken();
  const link: SharedLink = {
    id: linkId(tokenHash(deps.hashKey, token)),
    pk: LINKS_PK,
    kind: 'shared-link',
    ref: newRef(),
    site: site.value,
    label: asked.label,
    filters: asked.filters,
    days: asked.days ?? null,
    created_at: now.toISOString(),
    expires_at: expires === null ? null : expires.toISOString(),
    password: asked.password ? await hashPassword(asked.password) : null,
    revoked_at: null,
  };
  await deps.links.create(link);
  // The token is answered once, here, and kept nowhere: a lost link is revoked and made again.
  return ok({ token, link: linkRow(link) });
}

export async function revokeLink(ref: string, deps: LinkAdminDeps): Promise<Result<SharedLinkRevokedAnswer>> {
  const read = /^[0-9a-f]{16}$/.test(ref) ? await deps.links.byRef(ref) : null;
  if (read === null) return fail({ status: 404, code: 'not_found', message: 'ref: no such link' });
  const revoked = { ...read.doc, revoked_at: read.doc.revoked_at ?? deps.clock.now().toISOString() };
  // A replace that lost a race to another revoke leaves the link revoked all the same.
  await deps.links.replace(revoked, read.etag);
  return ok({ link: linkRow(revoked) });
}

export async function listLinks(deps: LinkAdminDeps): Promise<Result<SharedLinksAnswer>> {
  const links = await deps.links.list();
  return ok({ links: links.sort((a, b) => (a.created_at < b.created_at ? 1 : -1)).map(linkRow) });
}
