import { fixedClock } from '../../shared/core/ports/clock';
import { VISITORS_PK } from '../../shared/core/store/visitors';
import { VISITS_SUMMARY_ID } from '../../shared/core/store/visits';
import { containerOf } from '../support/cosmos';
import { startTestHost, type TestHost } from '../support/host';
import { AGENTS, post } from '../support/http';

/** The fixture's now: the evening of 23 Oct, UTC. */
export const NOW = '2026-10-23T20:00:00Z';

const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:131.0) Gecko/20100101 Firefox/131.0';

/**
 * A site's week: four people (from networks in Germany, France and Japan) on several days and stores, two of them
 * from tagged links, a scanner, a crawler and the site's own reads.
 */
const HITS = [
  // Alice: four days, came from LinkedIn, read the about page.
  {
    at: '2026-10-18T09:00:00Z',
    address: '193.99.144.80',
    user_agent: AGENTS.chromeWindows,
    path: '/?utm_source=linkedin&utm_medium=social&utm_campaign=launch',
    referrer: 'https://www.linkedin.com/feed/',
    page_load: true,
    subject: 'tree-42',
  },
  { at: '2026-10-18T09:02:00Z', address: '193.99.144.80', user_agent: AGENTS.chromeWindows, path: '/about', page_load: true },
  {
    at: '2026-10-20T12:00:00Z',
    address: '193.99.144.80',
    user_agent: AGENTS.chromeWindows,
    path: '/trees/42',
    page_load: true,
    subject: 'tree-42',
  },
  { at: '2026-10-22T21:00:00Z', address: '193.99.144.80', user_agent: AGENTS.chromeWindows, path: '/', store: 'shop', page_load: true },
  { at: '2026-10-23T10:00:00Z', address: '193.99.144.80', user_agent: AGENTS.chromeWindows, path: '/resume', page_load: true },
  // Bob: from GitHub, the whole path.
  {
    at: '2026-10-21T08:00:00Z',
    address: '212.27.48.10',
    user_agent: AGENTS.firefoxLinux,
    path: '/?ref=newsletter&utm_medium=email',
    referrer: 'https://github.com/someone',
    page_load: true,
  },
  { at: '2026-10-21T08:01:00Z', address: '212.27.48.10', user_agent: AGENTS.firefoxLinux, path: '/about', page_load: true },
  { at: '2026-10-21T08:02:00Z', address: '212.27.48.10', user_agent: AGENTS.firefoxLinux, path: '/resume', page_load: true },
  { at: '2026-10-23T15:00:00Z', address: '212.27.48.10', user_agent: AGENTS.firefoxLinux, path: '/cart', store: 'shop', page_load: true },
  // Carol: today, from a search, on a phone; Dan: today, typed the address.
  {
    at: '2026-10-23T11:30:00Z',
    address: '153.240.1.1',
    user_agent: AGENTS.safariIphone,
    path: '/',
    referrer: 'https://www.google.com/',
    page_load: true,
    subject: 'tree-7',
  },
  {
    at: '2026-10-23T11:31:00Z',
    address: '153.240.1.1',
    user_agent: AGENTS.safariIphone,
    path: '/trees/7',
    page_load: true,
    subject: 'tree-7',
  },
  { at: '2026-10-23T18:00:00Z', address: '2003:e0:1::1', user_agent: FIREFOX_WINDOWS, path: '/', store: 'shop', page_load: true },
  // Carol and Dan again in the last half hour, so the dashboard has someone on the site now.
  { at: '2026-10-23T19:45:00Z', address: '2003:e0:1::1', user_agent: FIREFOX_WINDOWS, path: '/resume', store: 'shop', page_load: true },
  { at: '2026-10-23T19:50:00Z', address: '153.240.1.1', user_agent: AGENTS.safariIphone, path: '/about', page_load: true },
  // A scanner, a crawler, and the site's own reads (an own network, and the operator's key).
  { at: '2026-10-22T03:00:00Z', address: '198.51.100.200', user_agent: AGENTS.curl, path: '/wp-login.php' },
  { at: '2026-10-23T03:00:00Z', address: '198.51.100.200', user_agent: AGENTS.curl, path: '/.env' },
  { at: '2026-10-19T04:00:00Z', address: '66.249.66.1', user_agent: AGENTS.googlebot, path: '/' },
  { at: '2026-10-23T04:00:00Z', address: '66.249.66.1', user_agent: AGENTS.googlebot, path: '/about' },
  { at: '2026-10-22T22:00:00Z', address: '10.20.0.5', user_agent: AGENTS.firefoxLinux, path: '/health' },
  {
    at: '2026-10-23T19:00:00Z',
    address: '198.51.100.77',
    user_agent: AGENTS.chromeWindows,
    path: '/',
    operator: 'test-operator-key-0123456789',
  },
];

/**
 * A host whose store holds the fixture's week, kept the way the app keeps it: posted through /api/hits, carried by
 * the queue into the local Cosmos server by keep-hits, then folded by the fold's timer (`recount`) run on demand. With `visits:
 * false` the visits summary is then taken away, as on a store whose visits were never counted, so a page can be shown
 * the people without the visits.
 */
export async function seededHost(env: Record<string, string> = {}, options: { visits?: boolean } = {}): Promise<TestHost> {
  const t = await startTestHost({ env, overrides: { clock: fixedClock(NOW) } });
  const container = await containerOf(t.env);
  await keep(t, HITS);
  if (options.visits === false) await container.item(VISITS_SUMMARY_ID, VISITORS_PK).delete();
  return t;
}

/** Posts hits through /api/hits, waits until keep-hits has kept them, and folds them, as seededHost does its week. */
export async function keep(t: TestHost, hits: readonly object[]): Promise<void> {
  const sent = await post(`${t.host.url}/api/hits`, { hits }, { 'x-ingest-key': t.env.INGEST_KEY! });
  if (sent.status !== 202) throw new Error(`the hits were refused: ${JSON.stringify(sent.json)}`);
  await t.host.drain();
  await t.fold();
}

/**
 * What a visitor controls, made hostile: a path that is markup, and a link from a host that would break out of an
 * attribute and carries escaped markup (a URL's host cannot hold `<`, so this is as close as a real referrer gets).
 * A page that set either as HTML would run it or show other text than this.
 */
export const HOSTILE_PATH = '/<img src=x onerror=alert(1)>';
export const HOSTILE_HOST = 'x"onmouseover=alert(1)&lt;b&gt;.example';

/** A person reading the hostile path from the hostile host, ten minutes before the fixture's now. */
export const HOSTILE_HITS = [
  {
    at: '2026-10-23T19:50:00Z',
    address: '81.2.69.160',
    user_agent: FIREFOX_WINDOWS,
    path: HOSTILE_PATH,
    referrer: `https://${HOSTILE_HOST}/`,
    page_load: true,
  },
];

/** An Admin read as the API answers it, for comparing with what the page shows. */
export async function adminRead(t: TestHost, path: string): Promise<any> {
  const response = await fetch(`${t.host.url}${path}`, { headers: { authorization: `Bearer ${t.env.OPERATOR_KEY}` } });
  if (!response.ok) throw new Error(`${path} answered ${response.status}`);
  return response.json();
}
