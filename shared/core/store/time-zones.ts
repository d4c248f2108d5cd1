import type { Conditional } from './documents';
import { VISITORS_PK } from './visitors';

export const TIME_ZONES_ID = 'time-zones';

/** A zone and the local day from which it holds (null: all time). */
export interface ZoneSpan {
  zone: string;
  from: string | null;
}

/**
 * In each site's store: the zones its days were kept in, oldest first, after UTC (which needs none). Created when a
 * zone other than UTC is first seen, and a span added when the zone changes; a span is never changed.
 */
export interface TimeZones {
  id: typeof TIME_ZONES_ID;
  pk: typeof VISITORS_PK;
  kind: 'time-zones';
  spans: ZoneSpan[];
  /** When each span was first seen: a new zone holds from the first local midnight after it. */
  seen_at: string[];
}

export type TimeZonesDocs = Conditional<TimeZones, []>;
