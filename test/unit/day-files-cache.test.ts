import { describe, expect, it } from 'vitest';
import type { BlobAnswer, BlobCall, BlobRequest } from '../../adapters/azure-blob';
import { blobDayFiles, DAY_FILES_CONTAINER } from '../../adapters/day-files/blob-day-files';
import { DuckEngine } from '../../adapters/day-files/duckdb';
import { ONE_SITE } from '../../shared/core/sites/keys';
import { tokenRow } from '../../shared/core/rollup/day-columns';
import { visitorDay } from '../support/counting';

// A closed day's file is downloaded once a version and kept on the instance's disk, within a bound of bytes: the
// least read goes first, a day written again is downloaded again, and writing a day removes its file of the layout before.

const DAYS = ['2026-10-20', '2026-10-21', '2026-10-22'];
const FILTERS = [
  { dimension: 'page' as const, value: '/', negated: false },
  { dimension: 'country' as const, value: 'XX', negated: true },
];

/** Blob Storage in memory, as much of it as the day files ask, counting each request. */
function blobsInMemory() {
  const blobs = new Map<string, { body: Buffer; etag: string }>();
  const asked: BlobRequest[] = [];
  let version = 0;
  const answer = (status: number, text = '', bytes?: Buffer): BlobAnswer => ({ status, header: () => null, text, bytes });
  const call: BlobCall = async (request) => {
    asked.push(request);
    const name = request.path.slice(DAY_FILES_CONTAINER.length + 1);
    if (request.query?.restype === 'container' && request.query.comp === undefined) return answer(201);
    if (request.query?.comp === 'list') {
      const listed = [...blobs].filter(([blob]) => blob.startsWith(request.query!.prefix!));
      return answer(
        200,
        `<Blobs>${listed.map(([blob, { etag }]) => `<Blob><Name>${blob}</Name><Etag>${etag}</Etag></Blob>`).join('')}</Blobs>`,
      );
    }
    if (request.method === 'PUT') {
      version += 1;
      blobs.set(name, { body: Buffer.from(request.body as Uint8Array), etag: `"v${version}"` });
      return answer(201);
    }
    if (request.method === 'DELETE') return answer(blobs.delete(name) ? 202 : 404);
    const blob = blobs.get(name);
    return blob === undefined ? answer(404) : answer(200, '', blob.body);
  };
  return { call, blobs, downloads: () => asked.filter((request) => request.method === 'GET' && request.query === undefined).length };
}

async function* rowsOf(day: string) {
  yield Array.from({ length: 20 }, (_, n) => tokenRow([visitorDay(day, `${day}-${n}`)], { steps: [], goals: [] }));
}

describe('the day files a process keeps', () => {
  it('downloads each version once, again when written again, and the least read first out past its bound', async () => {
    const engine = await DuckEngine.open();
    const blob = blobsInMemory();
    const files = blobDayFiles(blob.call, async () => engine, ONE_SITE, 'db.activity');
    // A file of the layout before, under the site's folder, goes when its day is written again.
    blob.blobs.set('db.activity/_/2026-10-20.parquet', { body: Buffer.from('old'), etag: '"old"' });
    for (const day of DAYS) await files.write(day, rowsOf(day));
    expect([...blob.blobs.keys()].sort()).toEqual(DAYS.map((day) => `db.activity/_/v2/${day}.parquet`));
    const first = await files.tally(DAYS, FILTERS);
    expect(blob.downloads()).toBe(3);
    expect(await files.tally(DAYS, FILTERS)).toEqual(first);
    expect(blob.downloads()).toBe(3);
    await files.write(DAYS[1]!, rowsOf(DAYS[1]!));
    await files.tally(DAYS, FILTERS);
    expect(blob.downloads()).toBe(4);

    // One byte kept: a question keeps only the file it read last, so the next downloads the two others again.
    const bounded = blobDayFiles(blob.call, async () => engine, ONE_SITE, 'db.activity', 1);
    const before = blob.downloads();
    await bounded.tally(DAYS, FILTERS);
    await bounded.tally(DAYS, FILTERS);
    expect(blob.downloads() - before).toBe(5);
    expect(await bounded.tally(DAYS, FILTERS)).toEqual(await files.tally(DAYS, FILTERS));
  });

  it('downloads a file once for questions asked at once, and each reads it whole', async () => {
    const engine = await DuckEngine.open();
    const blob = blobsInMemory();
    const files = blobDayFiles(blob.call, async () => engine, ONE_SITE, 'db.at-once');
    for (const day of DAYS) await files.write(day, rowsOf(day));
    const alone = await blobDayFiles(blob.call, async () => engine, ONE_SITE, 'db.at-once').tally(DAYS, FILTERS);
    const before = blob.downloads();
    const answers = await Promise.all(Array.from({ length: 6 }, () => files.tally(DAYS, FILTERS)));
    expect(blob.downloads() - before).toBe(3);
    for (const answer of answers) expect(answer).toEqual(alone);
  });
});
