import { randomUUID } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { blobError, ensureBlobContainer, type BlobCall } from '../azure-blob';
import { DAY_FILE_LAYOUT, type DayFiles } from '../../shared/core/store/day-files';
import type { SiteScope } from '../../shared/core/sites/keys';
import type { DuckEngine } from './duckdb';

export const DAY_FILES_CONTAINER = 'day-files';

/** The day files a process keeps on its temporary disk: 400 days of 20,000 visitors a day, and more. */
const CACHED_BYTES = 512 * 1024 * 1024;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Each day's blob under a prefix and its version, from the List Blobs answer's XML. */
function listedOf(xml: string, prefix: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const [, blob] of xml.matchAll(/<Blob>([\s\S]*?)<\/Blob>/g)) {
    const name = /<Name>([^<]*)<\/Name>/.exec(blob!)?.[1] ?? '';
    const day = name.slice(prefix.length).replace(/\.parquet$/, '');
    const etag = /<Etag>([^<]*)<\/Etag>/i.exec(blob!)?.[1] ?? '';
    if (name.startsWith(prefix) && DAY.test(day)) found.set(day, etag);
  }
  return found;
}

/**
 * One Parquet file a closed day in Blob Storage (the Functions' own account, under its managed identity in Azure),
 * copied to the instance's temporary folder once a version and queried there by the process's one DuckDB.
 */
export function blobDayFiles(
  call: BlobCall,
  engine: () => Promise<DuckEngine>,
  scope: SiteScope,
  store: string,
  cachedBytes = CACHED_BYTES,
): DayFiles {
  // Under the store's own name, so deployments (and test runs) that share a storage account never read each other's.
  const site = `${encodeURIComponent(store)}/${scope.name === '' ? '_' : encodeURIComponent(scope.name)}/`;
  // Each layout in its own folder: a file of the layout before is never read, and goes once its day is written again.
  const prefix = `${site}v${DAY_FILE_LAYOUT}/`;
  // Closed days' files change only when written again, so each version is downloaded once, the least read first out.
  const cached = new Map<string, { etag: string; path: string; bytes: number }>();
  let held = 0;
  // Its own names in the engine's folder, so another instance's cache never removes a file this one reads.
  const own = randomUUID().slice(0, 8);
  const evict = async () => {
    for (const [day, file] of cached) {
      if (held <= cachedBytes || cached.size <= 1) return;
      cached.delete(day);
      held -= file.bytes;
      await rm(file.path, { force: true });
    }
  };
  let container: ReturnType<typeof ensureBlobContainer> | null = null;
  const ensured = async () => {
    container ??= ensureBlobContainer(call, DAY_FILES_CONTAINER);
    const made = await container;
    if (!made.ok) {
      container = null;
      throw new Error(made.reason);
    }
  };
  const list = async (): Promise<Map<string, string>> => {
    await ensured();
    const found = new Map<string, string>();
    let marker = '';
    do {
      const query: Record<string, string> = { restype: 'container', comp: 'list', prefix };
      if (marker !== '') query.marker = marker;
      const answer = await call({ method: 'GET', path: DAY_FILES_CONTAINER, query });
      if (answer.status !== 200) throw new Error(`the day files could not be listed: ${blobError(answer)}`);
      for (const [day, listed] of listedOf(answer.text, prefix)) found.set(day, listed);
      marker = /<NextMarker>([^<]*)<\/NextMarker>/.exec(answer.text)?.[1] ?? '';
    } while (marker !== '');
    return found;
  };
  const download = async (day: string, etag: string): Promise<string> => {
    const before = cached.get(day);
    if (before !== undefined) {
      cached.delete(day);
      held -= before.bytes;
      await rm(before.path, { force: true });
    }
    const answer = await call({ method: 'GET', path: `${DAY_FILES_CONTAINER}/${prefix}${day}.parquet` });
    if (answer.status !== 200) throw new Error(`the day file of ${day} could not be read: ${blobError(answer)}`);
    const path = join((await engine()).folder, `${own}-${encodeURIComponent(prefix)}${day}-${etag.replace(/\W/g, '')}.parquet`);
    const body = answer.bytes ?? Buffer.from(answer.text);
    await writeFile(path, body);
    cached.set(day, { etag, path, bytes: body.length });
    held += body.length;
    return path;
  };
  // Questions asked at once that need the same file wait on its one download, so none opens it half written.
  const downloading = new Map<string, Promise<string>>();
  const local = async (day: string, etag: string): Promise<string> => {
    const before = cached.get(day);
    if (before?.etag === etag) {
      cached.delete(day);
      cached.set(day, before);
      return before.path;
    }
    const key = `${day}|${etag}`;
    const under = downloading.get(key) ?? download(day, etag).finally(() => downloading.delete(key));
    downloading.set(key, under);
    return under;
  };
  const paths = async (days: readonly string[]) => {
    const listed = await list();
    return Promise.all(days.filter((day) => listed.has(day)).map((day) => local(day, listed.get(day)!)));
  };
  let reading = 0;
  // Files are removed only once no question of this process is reading, so none is removed under one.
  const asked = async <T>(days: readonly string[], ask: (files: string[]) => Promise<T>): Promise<T> => {
    reading += 1;
    try {
      return await ask(await paths(days));
    } finally {
      reading -= 1;
      if (reading === 0) await evict();
    }
  };
  return {
    async written(days) {
      const listed = await list();
      return new Set(days.filter((day) => listed.has(day)));
    },
    async write(day, pages) {
      await ensured();
      const body = await (await engine()).parquetOf(pages);
      const answer = await call({
        method: 'PUT',
        path: `${DAY_FILES_CONTAINER}/${prefix}${day}.parquet`,
        headers: { 'x-ms-blob-type': 'BlockBlob' },
        body,
      });
      if (answer.status !== 201) throw new Error(`the day file of ${day} could not be written: ${blobError(answer)}`);
      const before = await call({ method: 'DELETE', path: `${DAY_FILES_CONTAINER}/${site}${day}.parquet` });
      if (before.status !== 202 && before.status !== 404)
        throw new Error(`the day file of ${day} in the layout before could not be removed: ${blobError(before)}`);
    },
    async tally(days, filters) {
      const duck = await engine();
      return asked(days, (files) => duck.tally(files, filters));
    },
    async cohorts(days, filters) {
      const duck = await engine();
      return asked(days, (files) => duck.cohorts(files, filters));
    },
  };
}
