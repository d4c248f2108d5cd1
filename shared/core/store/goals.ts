import type { Conditional, Created, Replaced, Versioned } from './documents';

/** Days from a person's first visit to their first time reaching a goal. */
export const CONVERT_BUCKETS = ['0', '1', '2-7', '8-30', '31+', 'unknown'] as const;
export type ConvertBucket = (typeof CONVERT_BUCKETS)[number];

export interface ByTouch {
  sources: Record<string, number>;
  referrers: Record<string, number>;
  campaigns: Record<string, number>;
}

/** One partition per goal: its summary and one document per person who reached it. */
export const goalPk = (goal: string) => `goal:${goal}`;

export const goalSummaryId = (goal: string) => `goal-summary:${goal}`;

export const goalPersonId = (goal: string, person: string) => `goal-person:${goal}:${person}`;

/** One conversion: a person's day that reached the goal. */
export const goalDayId = (goal: string, person: string, day: string) => `goal-day:${goal}:${person}:${day}`;

/** One goal's people all time, each once however often they reach it; only the fold writes it. */
export interface GoalSummary {
  id: string;
  pk: string;
  kind: 'goal-summary';
  goal: string;
  people_all_time: number;
  /** Null until someone reaches it. */
  first_day: string | null;
  /** Absent on summaries kept before first touches. */
  first_touch?: ByTouch;
  /** Each person's day that reached it counts once. */
  conversions_by_touch?: ByTouch;
  days_to_convert?: Partial<Record<ConvertBucket, number>>;
  /**
   * People counted by the last write whose documents may not exist yet: written with the counts, cleared once
   * shared/fold/goals.ts makes them.
   */
  pending: Array<{ person: string; at: string; day?: string; moved?: true; derived?: true }>;
}

/** Created once. */
export interface GoalDay {
  id: string;
  pk: string;
  kind: 'goal-day';
  goal: string;
  person: string;
  day: string;
  /** The person is the derived id, so the person-ids migration leaves it (docs/design.md, Identity). */
  derived?: true;
}

/** Created once. */
export interface GoalPerson {
  id: string;
  pk: string;
  kind: 'goal-person';
  goal: string;
  /** The keyed person hash, never an address. */
  person: string;
  first_at: string;
  /** The person is the derived id, so the person-ids migration leaves it. */
  derived?: true;
}

export interface GoalsStore {
  summaries: Conditional<GoalSummary, [goal: string]>;
  people: {
    /** One partition query. */
    known(goal: string, persons: readonly string[]): Promise<Array<Pick<GoalPerson, 'person' | 'first_at'>>>;
    create(doc: GoalPerson): Promise<Created>;
    read(goal: string, person: string): Promise<Versioned<GoalPerson> | null>;
    replace(doc: GoalPerson, etag: string): Promise<Replaced>;
  };
  days: {
    /** One partition query. */
    known(goal: string, ids: readonly string[]): Promise<string[]>;
    create(doc: GoalDay): Promise<Created>;
  };
  /** The person-ids migration's: a goal's documents of people not yet derived, and the removal of a moved one. */
  moves: {
    /** One partition query, at most `limit`. */
    unmoved(goal: string, limit: number): Promise<Array<GoalPerson | GoalDay>>;
    /** A removal that finds nothing is done. */
    remove(goal: string, id: string): Promise<void>;
  };
}
