import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { Estimate, remembered } from '../../scripts/import/estimate';
import { addressOf, flat } from '../../scripts/import/record';

// A forced collection, so what is measured is what is still reachable.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** A chunk as the command reads one (a quarter of a megabyte: a larger string Node would keep outside the heap). */
const CHUNK = 256 * 1024;
const CHUNKS = 128;
const MB = (CHUNK * CHUNKS) / 1e6;

/** A chunk of text starting with `head`: its slices keep it whole. */
function chunkStarting(head: string): string {
  const bytes = Buffer.alloc(CHUNK, 'x');
  bytes.write(head, 0, 'latin1');
  return bytes.toString('latin1');
}

/** What the heap grows by (in MB) while `keep` is handed a slice of each of many chunks, each chunk dropped after. */
function growthKeeping(keep: (slice: (text: string) => string, i: number) => void): number {
  gc();
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < CHUNKS; i += 1) keep((text) => chunkStarting(`${text} `).slice(0, text.length), i);
  gc();
  return (process.memoryUsage().heapUsed - before) / 1e6;
}

describe('the import keeps no chunk of a file alive', () => {
  it('flat copies a text whole', () => {
    for (const text of [
      '',
      '203.0.113.7',
      'Mozilla/5.0 (X11; Linux x86_64) Gecko/20100101 Firefox/128.0',
      'é 漢字 \u{1f600}',
      '\ud800 lone',
    ]) {
      expect(flat(text)).toBe(text);
      expect(flat(text).length).toBe(text.length);
    }
  });

  it('a slice kept as it is holds its whole chunk (what the caches must not do)', () => {
    const held: string[] = [];
    // The control: the measure sees a chunk a slice.
    expect(growthKeeping((slice, i) => held.push(slice(`203.0.113.${100 + i}`)))).toBeGreaterThan(MB * 0.8);
    expect(held).toHaveLength(CHUNKS);
  });

  it('a remembered key, and a value read from it, hold no chunk', () => {
    const read = remembered(1_000, (agent: string) => ({ family: agent.trim().toLowerCase() }));
    const families: string[] = [];
    const growth = growthKeeping((slice, i) => families.push(read(slice(`mozilla/5.0 (x11; linux) agent-${i}`)).family));
    expect(families).toHaveLength(CHUNKS);
    expect(families[7]).toBe('mozilla/5.0 (x11; linux) agent-7');
    expect(growth).toBeLessThan(8);
  });

  it('the addresses read, and the estimate of a log, hold no chunk', () => {
    const estimate = new Estimate({ selfAgentTag: 'headcount-self', networks: null });
    const growth = growthKeeping((slice, i) => {
      const address = addressOf(slice(`2001:db8:0:0:0:0:0:${(i + 1).toString(16)}`));
      expect(address).toBe(`2001:db8::${(i + 1).toString(16)}`);
      estimate.add(
        {
          at: new Date('2026-10-01T10:00:00Z'),
          address: slice(`203.0.113.${100 + i}`),
          userAgent: slice(`Mozilla/5.0 (Windows NT 10.0; Win64; x64) Firefox/128.0 build-${i}`),
          method: 'GET',
          path: slice(`/articles/a-long-enough-path-${i}`),
          status: 200,
          referrer: null,
          host: null,
        },
        '2026-10-01',
      );
    });
    expect(estimate.result()).toEqual({ people: CHUNKS, scanners: 0, visits: CHUNKS });
    expect(growth).toBeLessThan(8);
  });
});
