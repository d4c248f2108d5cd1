import { utcDay } from '../../shared/core/identity/tokens';
import type { HitDaysOf } from '../../shared/ingest/day-secrets';

/** Every site's days in UTC, for the tests of what the zone does not change. */
export const utcDays: HitDaysOf = (at) => Promise.resolve({ day: utcDay(at) });
