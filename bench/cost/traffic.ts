import { KEYS } from '../settings';
import { beaconRequest, sendAtOnce, type ClientAnswer } from '../../test/support/beacon-clients';
import { bodiesOf } from '../site-traffic';

/** Visitors and the pages each views: a million busy hits are many visitors, each seen a few times a day. */
export const VISITORS = 600;
const PAGES = 3;
/** Beacon clients sending at once, in waves. */
const WAVE = 200;
/** Hits in one server request, and server requests at once. */
const SERVER_BATCH = 50;

export type Sent = { hits: number; answers: ClientAnswer[] };

/** The engagement the snippet sends when a page is left: how long it was read and how far, and how long after it loaded. */
const engagementOf = (visitor: number) => ({ ms: 20_000 + (visitor % 40) * 1_000, scroll: 30 + (visitor % 70), since_ms: 60_000 });

/**
 * Beacon traffic: VISITORS browsers, PAGES page views each, WAVE concurrent one-hit requests at a time, each page view
 * followed by its engagement beacon when the page is left. `hits` counts the page views, so a million is a million of them.
 */
export async function beaconTraffic(url: string, first = 0): Promise<Sent> {
  const answers: ClientAnswer[] = [];
  const waves = async (body: (visitor: number) => Record<string, unknown>) => {
    for (let wave = 0; wave < VISITORS; wave += WAVE) {
      const requests = Array.from({ length: WAVE }, (_, n) => beaconRequest(first + wave + n, body(first + wave + n)));
      answers.push(...(await sendAtOnce(url, requests)));
    }
  };
  for (let page = 0; page < PAGES; page += 1) {
    await waves(() => ({ path: `/articles/${page}` }));
    await waves((visitor) => ({ path: `/articles/${page}`, engagement: engagementOf(visitor) }));
  }
  return { hits: VISITORS * PAGES, answers };
}

/** Server traffic: the same visitors and pages, reported by the site's server in requests of SERVER_BATCH hits, all at once. */
export async function serverTraffic(url: string, first = 0): Promise<Sent> {
  const hits = [];
  for (let page = 0; page < PAGES; page += 1) {
    for (let n = 0; n < VISITORS; n += 1) {
      const v = first + n;
      hits.push({
        address: `198.${51 + Math.floor(v / 62_500)}.${Math.floor(v / 250) % 250}.${v % 250}`,
        user_agent: beaconRequest(v).headers['user-agent'],
        path: `/articles/${page}`,
        page_load: true,
      });
    }
  }
  const headers = { 'content-type': 'application/json', 'x-ingest-key': KEYS.INGEST_KEY };
  const requests = bodiesOf(hits, SERVER_BATCH).map((body) => ({ path: '/api/hits', headers, body }));
  return { hits: hits.length, answers: await sendAtOnce(url, requests) };
}

/** Sparse beacon traffic: one beacon at a time, each alone in its window, as at a quiet hour. */
export async function loneBeacons(url: string, count: number): Promise<Sent> {
  const answers: ClientAnswer[] = [];
  for (let n = 0; n < count; n += 1) answers.push(...(await sendAtOnce(url, [beaconRequest(n)])));
  return { hits: count, answers };
}
