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

/** Beacon traffic: VISITORS browsers, PAGES beacons each, WAVE concurrent one-hit requests at a time. */
export async function beaconTraffic(url: string, first = 0): Promise<Sent> {
  const answers: ClientAnswer[] = [];
  for (let page = 0; page < PAGES; page += 1) {
    for (let wave = 0; wave < VISITORS; wave += WAVE) {
      const requests = Array.from({ length: WAVE }, (_, n) => beaconRequest(first + wave + n, { path: `/articles/${page}` }));
      answers.push(...(await sendAtOnce(url, requests)));
    }
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
