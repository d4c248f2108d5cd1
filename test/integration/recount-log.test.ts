import { afterEach, describe, expect, it } from 'vitest';
import { memoryStore } from '../../adapters/memory/store';
import { fixedClock } from '../../shared/core/ports/clock';
import { memoryLogger } from '../../shared/core/ports/logger';
import { takeFoldLease } from '../../shared/core/store/fold-lease';
import { startTestHost, type TestHost } from '../support/host';

// What the fold's timer (`recount`) logs when it folds nothing: another fold holding the lease is the lease working,
// said as information; a store that could not answer is a warning, never "another fold is running".

const NOW = '2026-10-23T20:00:00Z';
let running: TestHost | undefined;
afterEach(async () => {
  await running?.stop();
  running = undefined;
});

/** The recount run once on a host over this store, and what it logged. */
async function recountLog(store: ReturnType<typeof memoryStore>): Promise<{ level: string; message: string; reason?: string }[]> {
  const logger = memoryLogger();
  running = await startTestHost({ overrides: { store, logger, clock: fixedClock(NOW) } });
  await running.host.run('recount');
  return logger.lines.map((line) => JSON.parse(line) as { level: string; message: string; reason?: string });
}

describe('the recount says why it folded nothing', () => {
  it('another fold holding the lease: "another fold is running", as information', async () => {
    const store = memoryStore();
    const other = await takeFoldLease(store.foldLease, 'fold-elsewhere', new Date(NOW), 600);
    expect(other.held).toBe(true);
    expect(await recountLog(store)).toEqual([
      expect.objectContaining({
        level: 'info',
        message: 'another fold is running',
        reason: expect.stringMatching(/^another fold holds the lease/),
      }),
    ]);
  });

  it('a store that cannot be read: a warning that the fold could not start, naming the store', async () => {
    const store = memoryStore();
    const down = {
      ...store,
      foldLease: { ...store.foldLease, read: () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:8081')) },
    };
    expect(await recountLog(down)).toEqual([
      expect.objectContaining({
        level: 'warn',
        message: 'the fold could not start; the next run folds from the same watermarks',
        reason: 'the fold lease could not be read: connect ECONNREFUSED 127.0.0.1:8081',
      }),
    ]);
  });
});
