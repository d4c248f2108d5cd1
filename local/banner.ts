import { COUNT_ME } from './count-me';
import type { DeclaredSite } from '../shared/core/sites/sites';

/** So the count's `source` never says Azure when it reads the local stand-in. */
export const LOCAL_COSMOS_NAME = 'the local Cosmos DB stand-in';

/** The example's keys are meant to be seen; any other key is the operator's own and never printed. */
const EXAMPLE_KEY = /^local-only-/;

/** The stand-in's name when the endpoint is on this machine; else none, and the store says Azure Cosmos DB. */
export function localCosmosName(endpoint: string | undefined): string | undefined {
  if (endpoint === undefined) return undefined;
  try {
    const host = new URL(endpoint).hostname;
    return host === '127.0.0.1' || host === 'localhost' || host === '[::1]' ? LOCAL_COSMOS_NAME : undefined;
  } catch {
    return undefined;
  }
}

/** Printed once the host is up: the dashboard's address, how to sign in, how to add people, and whether you are counted. */
export function dashboardBanner(options: {
  url: string;
  /** local-settings.ts plainPort. */
  plainPort: number;
  operatorKey: string;
  allowedOrigins: readonly string[];
  /** The SITES setting; undefined without it. */
  sites: readonly DeclaredSite[] | undefined;
  /** Null without `--count-me`. */
  countedAs: string | null;
}): string[] {
  const { url } = options;
  const key = EXAMPLE_KEY.test(options.operatorKey) ? options.operatorKey : 'your OPERATOR_KEY (local.settings.json)';
  const port = Number(new URL(url).port);
  const simulate = port === options.plainPort ? 'npm run simulate' : `npm run simulate -- --port ${port}`;
  return [
    '',
    `Dashboard    ${url}/api/admin    (sign in with ${key})`,
    `People in it ${simulate}    (in another terminal: a week of simulated visitors, counted at once)`,
    options.countedAs === null
      ? `Your own page loads from this machine are not counted: a request from loopback is the site reading itself, never a person (npm start -- ${COUNT_ME} counts them).`
      : `Your own page loads from this machine are counted (${COUNT_ME}): a request from loopback is seen as from ${options.countedAs}, this machine's network address.`,
    siteLine(url, options.sites, options.allowedOrigins),
    '',
  ];
}

/** Where a site's origin goes: SITES when it is set (start-up refuses ALLOWED_ORIGINS beside it), else ALLOWED_ORIGINS. */
function siteLine(url: string, sites: readonly DeclaredSite[] | undefined, allowedOrigins: readonly string[]): string {
  const snippet = `<script defer src="${url}/api/assets/headcount.js"></script>`;
  if (sites !== undefined && sites.length > 0) {
    const site = sites.find((one) => one.origins.length > 0);
    return site === undefined
      ? 'A site of your own: give it its origin in SITES (name=https://origin), then put the snippet on its pages (README, On a site).'
      : `A site of your own: the snippet ${snippet} on a page of ${site.origins[0]!} (SITES, site ${site.name}).`;
  }
  const origin = allowedOrigins[0];
  return origin === undefined
    ? 'A site of your own: add its origin to ALLOWED_ORIGINS, then put the snippet on its pages (README, On a site).'
    : `A site of your own: the snippet ${snippet} on a page of ${origin} (ALLOWED_ORIGINS).`;
}
