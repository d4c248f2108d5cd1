import type { Conditional, Created } from '../store/documents';

/** The partition of one goal's documents: its summary and one document per person who ever reached it. */
export const goalPk = (goal: string) => `goal:${goal}`;

/** The id of a goal's summary. */
export const goalSummaryId = (goal: string) => `goal-summary:${goal}`;

/** The id of one person's document on a goal. */
export const goalPersonId = (goal: string, person: string) => `goal-person:${goal}:${person}`;

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
  /**
   * The people counted by the last write whose documents may not be made yet: written with the count, in one write,
   * before their documents; cleared once they are made (shared/folding/goals.ts).
   */
  pending: Array<{ person: string; at: string }>;
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
    /** Which of these persons already have their document on the goal (one partition query). */
    known(goal: string, persons: readonly string[]): Promise<string[]>;
    create(doc: GoalPerson): Promise<Created>;
  };
}
