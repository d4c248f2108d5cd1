import { COUNT_ME } from './count-me';

/** What the Cosmos DB account is called when it is the local server standing in for it (the count's `source` says so). */
export const LOCAL_COSMOS_NAME = 'the local Cosmos DB stand-in';

/** The example's keys are written to be seen; any other key is the operator's own, and never printed. */
const EXAMPLE_KEY = /^local-only-/;

/**
 * The name the local host gives a Cosmos DB endpoint: the stand-in's when it listens on this machine (the local server
 * `npm start` and `npm run services` run), else none, and the store says Azure Cosmos DB.
 */
export function localCosmosName(endpoint: string | undefined): string | undefined {
  if (endpoint === undefined) return undefined;
  try {
    const host = new URL(endpoint).hostname;
    return host === '127.0.0.1' || host === 'localhost' || host === '[::1]' ? LOCAL_COSMOS_NAME : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The lines `npm start` prints once the host is up, after where each service listens: the dashboard's address (which
 * answers 200), how to sign in, how to see it with people in it (`npm run simulate`, with `--port` when a second
 * terminal would not find this host's port by itself), and whether the newcomer's own browsing is counted.
 */
export function dashboardBanner(options: {
  url: string;
  /** The port a command run with no `--port` and no PORT finds (local-settings.ts plainPort). */
  plainPort: number;
  operatorKey: string;
  allowedOrigins: readonly string[];
  /** With `--count-me`, the address this machine's requests are counted from; else null. */
  countedAs: string | null;
}): string[] {
  const { url } = options;
  const key = EXAMPLE_KEY.test(options.operatorKey) ? options.operatorKey : 'your OPERATOR_KEY (local.settings.json)';
  const port = Number(new URL(url).port);
  const simulate = port === options.plainPort ? 'npm run simulate' : `npm run simulate -- --port ${port}`;
  const site = options.allowedOrigins[0];
  return [
    '',
    `Dashboard    ${url}/api/admin    (sign in with ${key})`,
    `People in it ${simulate}    (in another terminal: a week of simulated visitors, counted at once)`,
    options.countedAs === null
      ? `Your own page loads from this machine are not counted: a request from loopback is the site reading itself, never a person (npm start -- ${COUNT_ME} counts them).`
      : `Your own page loads from this machine are counted (${COUNT_ME}): a request from loopback is seen as from ${options.countedAs}, this machine's network address.`,
    site === undefined
      ? 'A site of your own: add its origin to ALLOWED_ORIGINS, then put the snippet on its pages (README, On a site).'
      : `A site of your own: the snippet <script defer src="${url}/api/assets/headcount.js"></script> on a page of ${site} (ALLOWED_ORIGINS).`,
    '',
  ];
}
