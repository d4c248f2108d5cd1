import { BOT_REASONS, type BotReason } from '../../core/identity/who';
import type { RollupCounts } from '../../core/store/rollups';
import type { DayFigures } from '../../core/store/periods';

/** The three kinds add up to the total. */
export interface DayOfKinds {
  day: string;
  people: number;
  scanners: number;
  self: number;
  total: number;
  left_out: Record<BotReason, number>;
  page_loads: number;
  /** Null on days folded before these. */
  people_new: number | null;
  returning: number | null;
}

/** For a period too long to chart by day. */
export type MonthOfKinds = Omit<DayOfKinds, 'day' | 'people_new' | 'returning'> & { month: string };

type Kinded = Pick<RollupCounts, 'visitor_days' | 'left_out' | 'page_loads'> & Pick<DayFigures, 'people_each' | 'people_new' | 'returning'>;

const noneLeftOut = (): Record<BotReason, number> =>
  Object.fromEntries(BOT_REASONS.map((reason) => [reason, 0])) as Record<BotReason, number>;

const kindsOf = (counts: Kinded | undefined) => ({
  ...(counts?.visitor_days ?? { people: 0, scanners: 0, self: 0, total: 0 }),
  left_out: { ...noneLeftOut(), ...counts?.left_out },
  page_loads: counts?.page_loads ?? 0,
});

/** Returning is the estimate of the day's own sketch of returning people, as the period's is of the union of its days'. */
function newAndReturning(counts: Kinded | undefined, exactNew: number | undefined): Pick<DayOfKinds, 'people_new' | 'returning'> {
  const fresh = exactNew ?? (counts === undefined ? 0 : counts.people_new);
  const returning = counts === undefined ? 0 : counts.returning;
  return { people_new: fresh ?? null, returning: returning ?? null };
}

/** Zeros on a day with nothing, so a chart has every day. */
export function byDay(rollups: ReadonlyMap<string, Kinded>, days: readonly string[], exactNew?: Record<string, number>): DayOfKinds[] {
  return days.map((day) => ({
    day,
    ...kindsOf(rollups.get(day)),
    ...newAndReturning(rollups.get(day), exactNew === undefined ? undefined : (exactNew[day] ?? 0)),
  }));
}

export function byMonth(rollups: ReadonlyMap<string, Kinded>, days: readonly string[]): MonthOfKinds[] {
  const months = new Map<string, MonthOfKinds>();
  for (const row of byDay(rollups, days)) {
    const month = row.day.slice(0, 7);
    const held = months.get(month) ?? { month, people: 0, scanners: 0, self: 0, total: 0, left_out: noneLeftOut(), page_loads: 0 };
    for (const kind of ['people', 'scanners', 'self', 'total', 'page_loads'] as const) held[kind] += row[kind];
    for (const reason of BOT_REASONS) held.left_out[reason] += row.left_out[reason];
    months.set(month, held);
  }
  return [...months.values()];
}
