import type { Who } from '../identity/who';
import type { ActivityHour, VisitorDay } from './activity';
import type { Created, Watermarked } from './documents';
import type { ImportedTotals } from './imports';
import type { FirstTouch } from './first-touch';

/** `minute_paths` is kept on the fact only, for GET /api/admin/now. */
export type VisitorDayPart = Omit<VisitorDay, 'pk' | 'kind' | 'visit' | 'folded_to' | 'first_at'> & {
  /** Each path's and event's first request in this fact, ISO 8601 UTC. */
  first_at?: Record<string, string>;
  /** Requests by `HH:MM` + path (the minute is the first five characters); absent on facts kept before it was. */
  minute_paths?: Record<string, number>;
};

export type HourPart = Omit<ActivityHour, 'pk' | 'kind' | 'folded_to'>;

/** The identity is the person hash or the visitor cookie's, null for self. */
export interface SubjectScan {
  subject: string;
  at: string;
  who: Who;
  identity: string | null;
  /** The identity is the derived person id, and `was` its HMAC value while the switch is under way (as a goal action's). */
  derived?: true;
  was?: string;
}

/** Only people's requests, never a bot's or the site's own. */
export interface GoalAction {
  person: string;
  at: string;
  events: string[];
  paths: string[];
  /** The person's first day counted among people, and their first touch, as their record held them when kept. */
  first?: string;
  touch?: FirstTouch;
  /** The person is named by the derived id (docs/design.md, Identity); absent on actions of the HMAC value. */
  derived?: true;
  /** The HMAC value of a person keep-hits derived, so the fold finds the goal documents not moved yet; gone with the fact. */
  was?: string;
  /** The site's local day, when it is not `at`'s UTC day. */
  day?: string;
}

/** The local day an action was on. */
export const actionDay = (action: Pick<GoalAction, 'at' | 'day'>): string => action.day ?? action.at.slice(0, 10);

/** Written once, never changed: a create that finds it there means the message was kept before. */
export interface Fact {
  id: string;
  pk: string;
  kind: 'fact';
  day: string;
  message: string;
  hits: number;
  visitor_days: VisitorDayPart[];
  hours: HourPart[];
  scans: SubjectScan[];
  /** People's actions, for the goals (absent on facts kept before goals were). */
  actions?: GoalAction[];
  /** A day's totals imported from another tool (no visitor-days, hours or scans beside them); absent on every other fact. */
  imported?: ImportedTotals;
  ttl: number;
}

/** Days: a message lives 7 on the queue and as many again per replay, then stays in poison, never half kept. */
export const FOLD_DAYS = 45;

/** Seconds: past any replay of its message and past the fold's reach. */
export const FACT_TTL_SECONDS = (FOLD_DAYS + 1) * 86_400;

export const factId = (message: string) => `fact:${message}`;

export interface Facts {
  create(fact: Fact): Promise<Created>;
  /** One partition query. */
  on(day: string, after: number, upTo: number): Promise<Watermarked<Fact>[]>;
  /** In watermark order: one slice of a backlog. */
  firstOn(day: string, after: number, upTo: number, limit: number): Promise<Watermarked<Fact>[]>;
}
