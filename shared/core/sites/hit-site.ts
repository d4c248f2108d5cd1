import { badRequest, fail, ok, type Result } from '../result';
import { ALL_SITES, siteOfOrigin, type DeclaredSite } from './sites';

const names = (sites: readonly DeclaredSite[]) => sites.map((site) => site.name).join(', ');

/** With no site named, the only site; else a 400 naming `path`. */
export function hitSite(named: string | undefined, sites: readonly DeclaredSite[], path: string): Result<string> {
  if (named === undefined) {
    if (sites.length === 1) return ok(sites[0]!.name);
    return fail(badRequest([{ path, message: `is required: SITES declares several sites (${names(sites)})` }]));
  }
  if (!sites.some((site) => site.name === named))
    return fail(badRequest([{ path, message: `is not a site declared in SITES (${names(sites)})` }]));
  return ok(named);
}

/**
 * The site named by the snippet's `data-site` must take the page's origin; else the site that holds it. Anyone may send
 * a beacon, so a refusal names the field, never a site.
 */
export function beaconSite(named: string | undefined, origin: string, sites: readonly DeclaredSite[]): Result<string> {
  if (named === undefined) {
    const site = siteOfOrigin(sites, origin) ?? (sites.length === 1 ? sites[0] : undefined);
    return site === undefined
      ? fail(badRequest([{ path: 'site', message: "is required: this page's origin is not one of any site's origins" }]))
      : ok(site.name);
  }
  const site = sites.find((one) => one.name === named);
  if (site === undefined || !site.origins.includes(origin))
    return fail(
      badRequest([{ path: 'site', message: "must name the site this page is on: this page's origin is not one of its origins" }]),
    );
  return ok(site.name);
}

/** `*` is all sites; by default the first declared, so an answer read without `site` is one site's. */
export function readSite(asked: string | null, sites: readonly DeclaredSite[]): Result<string> {
  if (asked === null || asked === '') return ok(sites[0]!.name);
  if (asked === ALL_SITES || sites.some((site) => site.name === asked)) return ok(asked);
  return fail(badRequest([{ path: 'site', message: 'must be a site counted here, or * for all of them' }]));
}
