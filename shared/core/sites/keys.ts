/**
 * The first site's keys have no prefix, so a store kept before sites reads unchanged.
 * Other sites' keys carry their name, and all sites together are the site `*`.
 */
export interface SiteScope {
  name: string;
  /** Empty for the first site. */
  prefix: string;
}

const SEPARATOR = '|';

export function scopeOf(name: string, firstSite: string): SiteScope {
  return { name, prefix: name === firstSite ? '' : `${name}${SEPARATOR}` };
}

/** The one place a partition key is formed. */
export const partitionKey = (scope: SiteScope, pk: string): string => `${scope.prefix}${pk}`;

export const plainKey = (scope: SiteScope, key: string): string => (key.startsWith(scope.prefix) ? key.slice(scope.prefix.length) : key);

export const ONE_SITE: SiteScope = { name: '', prefix: '' };

/** Only other sites' keys hold the separator. */
export const isFirstSiteKey = (key: string): boolean => !key.includes(SEPARATOR);

export const SITE_SEPARATOR = SEPARATOR;
