import { closeSync, fsyncSync, openSync } from 'node:fs';
import { mkdir, open, readdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

const TEMP = '.saving';

/** A crash leaves the old file or the new one whole: a flushed temporary file is renamed over it, and the folder flushed too. */
export async function writeFileWhole(file: string, text: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}${TEMP}`;
  const handle = await open(temp, 'w');
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temp, file);
  syncFolder(dirname(file));
}

function syncFolder(folder: string): void {
  // Windows cannot open a folder to flush it; there the rename is as durable as it gets.
  try {
    const fd = openSync(folder, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    /* best effort */
  }
}

/** A temporary file is never read, only cleared away. */
export async function clearUnfinished(file: string): Promise<void> {
  const folder = dirname(file);
  const names = await readdir(folder).catch(() => [] as string[]);
  const prefix = `${basename(file)}.`;
  await Promise.all(
    names.filter((name) => name.startsWith(prefix) && name.endsWith(TEMP)).map((name) => rm(join(folder, name), { force: true })),
  );
}
