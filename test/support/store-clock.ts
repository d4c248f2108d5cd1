import { inject } from 'vitest';
import { CLOCK_ROUTE } from '../../local/cosmos/clock';

/**
 * Moves the clock of the local Cosmos server at `endpoint` (the tests' shared one unless named) `seconds` forward,
 * through its `POST /_local/clock` route (local/cosmos/clock.ts), and answers where it stands, in `_ts` seconds.
 * The server must have been started with `movableClock`; one that is not answers 400 and this throws.
 */
export async function advanceStoreClock(seconds: number, endpoint: string = inject('stack').cosmosEndpoint): Promise<number> {
  const response = await fetch(new URL(CLOCK_ROUTE, endpoint), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ advanceSeconds: seconds }),
  });
  const body = (await response.json()) as { now?: number; message?: string };
  if (response.status !== 200 || typeof body.now !== 'number')
    throw new Error(
      `the Cosmos server at ${endpoint} has no movable clock (${response.status} ${body.message ?? ''}): start it with movableClock`,
    );
  return body.now;
}

/** Whether `error` is fetch's own: nothing answered at the address (a test of the store down), so no clock to move. */
const unreachable = (error: unknown): boolean => error instanceof TypeError && error.message === 'fetch failed';

/**
 * Moves the store's clock past the settle margin and a second: every write made before is then at or before the watermark
 * the next fold reads up to (its `_ts` now less `settleSeconds`), and every write after lands past it. Instant: no test
 * waits for the store's time to pass. A store that cannot be reached is left as it is (the fold then finds it down).
 */
export async function settle(settleSeconds: number, endpoint?: string): Promise<void> {
  try {
    await advanceStoreClock(settleSeconds + 1, endpoint);
  } catch (error) {
    if (!unreachable(error)) throw error;
  }
}
