import { memoryStore } from '../../adapters/memory/store';
import type { AdminAccess } from '../../host/http/admin/auth';
import { guesses, type Guesses } from '../../shared/core/guesses';
import type { Clock } from '../../shared/core/ports/clock';

/** Guesses counted in a memory store of their own. */
export const memoryGuessing = (clock: Clock, hashKey = 'test-hash-key-0123456789'): Guesses =>
  guesses({ counts: memoryStore().guesses, clock, hashKey });

/** The operator's access as the composition root builds it, its guesses in memory. */
export const testAccess = (clock: Clock, sessionHours = 8): AdminAccess => ({
  clock,
  sessionHours,
  trustedProxyHops: 0,
  guesses: memoryGuessing(clock),
  sessions: memoryStore().sessions,
});
