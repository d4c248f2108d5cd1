import { createReadStream, statSync } from 'node:fs';
import { open as fsOpen } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { PassThrough, type Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';

/** What a file is by its first bytes. */
export type Container = 'gzip' | 'zip' | 'text';

/** An input of the import: a file, or standard input (`-`). */
export interface Input {
  /** As given on the command line. */
  name: string;
  /** Its size in bytes (as stored, compressed or not); null for standard input. */
  size: number | null;
}

export const inputOf = (name: string): Input => ({ name, size: name === '-' ? null : statSync(name).size });

/** What the first bytes say a file is: gzip (1f 8b), zip (PK 03 04), or text. */
const containerOf = (first: Buffer): Container =>
  first[0] === 0x1f && first[1] === 0x8b
    ? 'gzip'
    : first[0] === 0x50 && first[1] === 0x4b && first[2] === 0x03 && first[3] === 0x04
      ? 'zip'
      : 'text';

/** Reads the first bytes of a stream and hands back the stream whole (those bytes first), with what they say it is. */
async function sniff(stream: Readable): Promise<{ container: Container; stream: Readable }> {
  const { first, ended } = await new Promise<{ first: Buffer; ended: boolean }>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    const done = (ended: boolean) => {
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('error', reject);
      stream.pause();
      resolve({ first: Buffer.concat(chunks), ended });
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      length += chunk.length;
      if (length >= 4) done(false);
    };
    const onEnd = () => done(true);
    stream.on('data', onData);
    stream.once('end', onEnd);
    stream.once('error', reject);
  });
  const container = containerOf(first);
  const whole = new PassThrough();
  if (ended) whole.end(first);
  else {
    whole.write(first);
    stream.on('error', (error) => whole.destroy(error));
    stream.pipe(whole);
  }
  return { container, stream: whole };
}

/** An opened input: what it is, its bytes as stored (counted as they are read, for progress), and its text when it is not a zip. */
export interface Opened {
  container: Container;
  /** Bytes of the input read so far, as stored. */
  bytesRead(): number;
  /** The stream of bytes as stored (for a zip). */
  raw: Readable;
  /** Its lines, unzipped when it is gzip. */
  lines(): AsyncIterableIterator<string>;
  close(): void;
}

/**
 * Opens an input as a stream (standard input for `-`), telling gzip and zip from text by their first bytes: memory
 * holds a chunk at a time, whatever the size. The bytes counted are the stored ones, so progress is against the size.
 */
export async function open(input: Input): Promise<Opened> {
  let read = 0;
  let file: Readable;
  let container: Container;
  let stream: Readable;
  if (input.name === '-') {
    // Standard input can be read only once: its first bytes are read off it and put back in front.
    file = process.stdin;
    file.on('data', (chunk: Buffer) => (read += chunk.length));
    ({ container, stream } = await sniff(file));
  } else {
    const head = Buffer.alloc(4);
    const handle = await fsOpen(input.name, 'r');
    const { bytesRead } = await handle.read(head, 0, 4, 0);
    await handle.close();
    container = containerOf(head.subarray(0, bytesRead));
    file = createReadStream(input.name, { highWaterMark: 256 * 1024 });
    file.on('data', (chunk: Buffer) => (read += chunk.length));
    stream = file;
  }
  const text = container === 'gzip' ? stream.pipe(createGunzip()) : stream;
  if (container === 'gzip') stream.on('error', (error) => text.destroy(error));
  return {
    container,
    bytesRead: () => read,
    raw: stream,
    lines: () => createInterface({ input: text, crlfDelay: Number.POSITIVE_INFINITY })[Symbol.asyncIterator](),
    close: () => {
      if (file !== process.stdin) file.destroy();
      text.destroy();
    },
  };
}

/** Up to `count` lines from an iterator, the iterator left where they end. */
export async function firstLines(lines: AsyncIterator<string>, count: number): Promise<string[]> {
  const taken: string[] = [];
  while (taken.length < count) {
    const next = await lines.next();
    if (next.done) break;
    taken.push(next.value);
  }
  return taken;
}
