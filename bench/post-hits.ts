import { inLanes } from '../shared/core/lanes';
import { KEYS } from './settings';

/**
 * Posts each body (a JSON `{ hits: [...] }`, made beforehand so its making is not timed) to the host's POST /api/hits
 * with the bench's ingest key, `lanes` requests at a time, as a site's servers would; throws unless each is answered 202.
 */
export async function postHits(url: string, bodies: readonly string[], lanes = 8): Promise<void> {
  await inLanes(bodies, lanes, async (body) => {
    const answer = await fetch(`${url}/api/hits`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-ingest-key': KEYS.INGEST_KEY },
      body,
    });
    if (answer.status !== 202) throw new Error(`POST /api/hits answered ${answer.status}: ${await answer.text()}`);
    await answer.arrayBuffer();
  });
}
