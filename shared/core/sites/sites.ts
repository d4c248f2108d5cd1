import { z } from 'zod';
import { isZone, UTC } from '../zone';

export interface Site {
  name: string;
  origins: string[];
  /** The IANA time zone its days are kept in. */
  zone: string;
}

/** As SITES declares it: a zone only when it gives one. */
export type DeclaredSite = Omit<Site, 'zone'> & { zone?: string };

/** All sites together, where a person who visited several is one person. */
export const ALL_SITES = '*';

/** The only site when neither SITES nor ALLOWED_ORIGINS names one. */
export const DEFAULT_SITE = 'site';

const siteName = /^[a-z0-9](?:[a-z0-9.-]{0,251}[a-z0-9])?$/;

export const siteNameSchema = z.string().regex(siteName, 'must be a site counted here, a lowercase host like example.com');

/** Checked against SITES where the read is answered. */
export const siteQuerySchema = z.string().max(253, 'must be a site counted here, or * for all of them').optional();

export function isOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return url.origin === value && (url.protocol === 'https:' || url.protocol === 'http:');
  } catch {
    return false;
  }
}

/** `;zone=Europe/Paris` after a site's origins is its own zone. */
function readZone(text: string, name: string): { rest: string; zone?: string } | string {
  const at = text.indexOf(';');
  if (at < 0) return { rest: text };
  const [key, value] = text
    .slice(at + 1)
    .split('=')
    .map((part) => part.trim());
  if (key !== 'zone' || value === undefined || !isZone(value))
    return `site ${name}: "${text.slice(at + 1)}" must be zone= and an IANA time zone, like zone=Europe/Paris`;
  return { rest: text.slice(0, at), zone: value };
}

/** `*;zone=Asia/Tokyo`: all sites together have a zone of their own, and no origins. */
function readAllSites(text: string): DeclaredSite | string {
  const zoned = readZone(text.slice(1).replace(/^\s*=/, ''), ALL_SITES);
  if (typeof zoned === 'string') return zoned;
  if (zoned.rest.trim() !== '' || zoned.zone === undefined)
    return `"${text}" must be *;zone= and an IANA time zone: all sites have no origins`;
  return { name: ALL_SITES, origins: [], zone: zoned.zone };
}

function readSite(text: string): DeclaredSite | string {
  if (text.startsWith(ALL_SITES)) return readAllSites(text);
  const eq = text.indexOf('=');
  const name = (eq < 0 ? text : text.slice(0, eq)).trim();
  if (!siteName.test(name)) return `"${text}" must be name=origin,origin with a lowercase host as its name`;
  const zoned = readZone(eq < 0 ? '' : text.slice(eq + 1), name);
  if (typeof zoned === 'string') return zoned;
  const origins = zoned.rest
    .split(',')
    .map((origin) => origin.trim())
    .filter((origin) => origin !== '');
  const bad = origins.find((origin) => !isOrigin(origin));
  if (bad !== undefined) return `site ${name}: "${bad}" must be scheme://host[:port] with no path`;
  return zoned.zone === undefined ? { name, origins } : { name, origins, zone: zoned.zone };
}

/**
 * SITES: `name=origin,origin;zone=Area/City` sites separated by `|`; names unique, an origin in one site only, the zone
 * optional. The first is the site a deployment counted before it had several. `*;zone=Area/City` gives all sites
 * together their own zone.
 */
export const sitesSetting = z
  .string()
  .optional()
  .transform((raw, ctx) => {
    if (raw === undefined) return undefined;
    const sites: DeclaredSite[] = [];
    const texts = raw
      .split('|')
      .map((part) => part.trim())
      .filter((part) => part !== '');
    const counted = texts.filter((text) => !text.startsWith(ALL_SITES)).length;
    if (counted < 1 || counted > 50) ctx.addIssue({ code: 'custom', message: 'must name from 1 to 50 sites' });
    else if (counted === 1 && counted < texts.length)
      ctx.addIssue({ code: 'custom', message: '* has a zone only when several sites are declared' });
    for (const text of texts) {
      const site = readSite(text);
      if (typeof site === 'string') ctx.addIssue({ code: 'custom', message: site });
      else if (sites.some((seen) => seen.name === site.name)) ctx.addIssue({ code: 'custom', message: `site ${site.name} is named twice` });
      else if (sites.some((seen) => seen.origins.some((o) => site.origins.includes(o))))
        ctx.addIssue({ code: 'custom', message: `site ${site.name}: an origin is another site's too` });
      else sites.push(site);
    }
    return sites;
  });

/** TIME_ZONE: every site's zone but those SITES gives their own. */
export const timeZoneSetting = z
  .string()
  .trim()
  .refine(isZone, 'must be an IANA time zone, like Europe/Paris or America/New_York')
  .default(UTC);

/** Without SITES, one site of ALLOWED_ORIGINS named by the first origin's host; a site without a zone of its own takes TIME_ZONE. */
export function declaredSites(sites: readonly DeclaredSite[] | undefined, allowedOrigins: readonly string[], zone: string = UTC): Site[] {
  const named = sites?.filter((site) => site.name !== ALL_SITES) ?? [];
  if (named.length > 0) return named.map((site) => ({ ...site, zone: site.zone ?? zone }));
  const first = allowedOrigins[0];
  return [{ name: first === undefined ? DEFAULT_SITE : new URL(first).hostname, origins: [...allowedOrigins], zone }];
}

/** All sites together are in the zone SITES gives `*`, else in the first site's. */
export const allSitesZone = (sites: readonly DeclaredSite[] | undefined, declared: readonly Site[]): string =>
  sites?.find((site) => site.name === ALL_SITES)?.zone ?? declared[0]!.zone;

export const allOrigins = (sites: readonly DeclaredSite[]): string[] => sites.flatMap((site) => site.origins);

export const siteOfOrigin = <S extends DeclaredSite>(sites: readonly S[], origin: string): S | undefined =>
  sites.find((site) => site.origins.includes(origin));

/** An IANA zone name the runtime knows: `Intl.DateTimeFormat` throws a RangeError on any other. */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
