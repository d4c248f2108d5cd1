/**
 * Where one site's documents are kept: the first declared site's partition keys are a deployment of one site's
 * (no prefix, so a store kept before sites reads unchanged), every other site's carry its name, and all sites
 * together are a site of their own, `*`.
 */
export interface SiteScope {
  /** The site's name, or `*` for all sites together. */
  name: string;
  /** What its partition keys begin with: empty for the first site. */
  prefix: string;
}

const SEPARATOR = '|';

/** The scope of `name`, given the first declared site's name. */
export function scopeOf(name: string, firstSite: string): SiteScope {
  return { name, prefix: name === firstSite ? '' : `${name}${SEPARATOR}` };
}

/** The one function that forms a partition key: the site's prefix and the key a deployment of one site would use. */
export const partitionKey = (scope: SiteScope, pk: string): string => `${scope.prefix}${pk}`;

/** The key a deployment of one site would use, from a partition key of the scope's. */
export const plainKey = (scope: SiteScope, key: string): string => (key.startsWith(scope.prefix) ? key.slice(scope.prefix.length) : key);

/** The scope of a deployment of one site: its keys as they always were. */
export const ONE_SITE: SiteScope = { name: '', prefix: '' };

/** Whether a partition key is of no site but the first: no other site's key holds the separator. */
export const isFirstSiteKey = (key: string): boolean => !key.includes(SEPARATOR);

/** The separator between a site's name and its keys, for a query that must tell the first site's keys from the others'. */
export const SITE_SEPARATOR = SEPARATOR;
