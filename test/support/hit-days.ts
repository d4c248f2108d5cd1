import { utcDay } from '../../shared/core/identity/tokens';
import type { HitDaysOf } from '../../shared/ingest/day-secrets';
import { oneZone, type ReadZone } from '../../shared/core/sites/zones';
import { zoneOf } from '../../shared/core/zone';

/** Every site's days in UTC, for the tests of what the zone does not change. */
export const utcDays: HitDaysOf = (at) => Promise.resolve({ day: utcDay(at) });

/** A read's days, all in UTC. */
export const utcZone: ReadZone = { zone: zoneOf('UTC'), days: () => Promise.resolve(oneZone(zoneOf('UTC'))) };
