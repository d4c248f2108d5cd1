import type { Conditional, Created, Replaced, Versioned } from '../store/documents';
import type { ByTouch, ConvertBucket } from './first-touch';

/** The partition of one goal's documents: its summary and one document per person who ever reached it. */
export const goalPk = (goal: string) => `goal:${goal}`;

/** The id of a goal's summary. */
export const goalSummaryId = (goal: string) => `goal-summary:${goal}`;

/** The id of one person's document on a goal. */
export const goalPersonId = (goal: string, person: string) => `goal-person:${goal}:${person}`;

/** The id of one person's day that reached a goal (one conversion). */
export const goalDayId = (goal: string, person: string, day: string) => `goal-day:${goal}:${person}:${day}`;

/**
 * One goal's people all time (pk `goal:<goal>`, id `goal-summary:<goal>`), folded by the fold, its only writer:
 * each person once, however often they reach it, the way the subjects keep their unique visitors.
 */
export interface GoalSummary {
  id: string;
  pk: string;
  kind: 'goal-summary';
  goal: string;
  people_all_time: number;
  /** The first day a person reached it; null until one did. */
  first_day: string | null;
  /** Its people ever by their first visit's source group, referrer host and campaign (absent before first touches). */
  first_touch?: ByTouch;
  /** Its conversions ever (a person's day that reached it, each once) by the person's first touch. */
  conversions_by_touch?: ByTouch;
  /** Its people by the days from their first visit to the first time they reached it. */
  days_to_convert?: Partial<Record<ConvertBucket, number>>;
  /**
   * The people (with `day`, the people's days; with `moved`, a person found to have reached it earlier) counted by the last write whose documents may not be made yet:
   * written with the counts, in one write, before their documents; cleared once they are made (shared/fold/goals.ts).
   */
  pending: Array<{ person: string; at: string; day?: string; moved?: true }>;
}

/** One person's day that reached a goal (pk `goal:<goal>`, id `goal-day:<goal>:<person>:<day>`), created once. */
export interface GoalDay {
  id: string;
  pk: string;
  kind: 'goal-day';
  goal: string;
  person: string;
  day: string;
}

/** One person who reached a goal (pk `goal:<goal>`, id `goal-person:<goal>:<person>`), created once. */
export interface GoalPerson {
  id: string;
  pk: string;
  kind: 'goal-person';
  goal: string;
  /** The person hash (the keyed hash the visitor records are kept under), never an address. */
  person: string;
  /** When they first reached it. */
  first_at: string;
}

/** Where the goals are kept: each goal's summary, and its people, created once each. */
export interface GoalsStore {
  summaries: Conditional<GoalSummary, [goal: string]>;
  people: {
    /** Which of these persons already have their document on the goal, and when they first reached it (one partition query). */
    known(goal: string, persons: readonly string[]): Promise<Array<Pick<GoalPerson, 'person' | 'first_at'>>>;
    create(doc: GoalPerson): Promise<Created>;
    read(goal: string, person: string): Promise<Versioned<GoalPerson> | null>;
    replace(doc: GoalPerson, etag: string): Promise<Replaced>;
  };
  /** Each person's days that reached a goal, one document each. */
  days: {
    /** Which of these ids are documents already (one partition query). */
    known(goal: string, ids: readonly string[]): Promise<string[]>;
    create(doc: GoalDay): Promise<Created>;
  };
}
