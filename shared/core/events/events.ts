import { isIP } from 'node:net';
import { z } from 'zod';

export const EVENT_NAME = /^[a-z][a-z0-9_-]{0,39}$/;

export const PROPS_LIMITS = { count: 5, key: 32, value: 100 } as const;

const PROP_KEY = /^[a-z][a-z0-9_]{0,31}$/;
const EMAIL = /[^\s@]+@[^\s@]+\.[^\s@]+/;
const DIGITS = /\d{6,}/;
const ADDRESS_LIKE = /[0-9a-f:.]{7,}/gi;

/**
 * Props never hold an email address, an IP address or six digits in a row, since those could name a person.
 * Returns why, or null.
 */
export function propProblem(value: string): string | null {
  if (EMAIL.test(value)) return 'looks like an email address';
  if (DIGITS.test(value)) return 'holds a run of 6 or more digits';
  const candidates = value.match(ADDRESS_LIKE) ?? [];
  if (candidates.some((part) => isIP(part.replace(/^[.:]+|[.:]+$/g, '')) !== 0) || isIP(value.trim()) !== 0)
    return 'looks like an IP address';
  return null;
}

export const eventNameSchema = z
  .string()
  .regex(EVENT_NAME, 'must be a lowercase name of 1 to 40 letters, digits, - or _, starting with a letter');

/** A value that could carry a person is refused by name. */
export const propsSchema = z
  .record(
    z.string().regex(PROP_KEY, 'keys must be lowercase letters, digits or _, at most 32, starting with a letter'),
    z
      .string({ error: 'values must be strings' })
      .min(1, 'values must not be empty')
      .max(PROPS_LIMITS.value, `values must be at most ${PROPS_LIMITS.value} characters`),
  )
  .refine((props) => Object.keys(props).length <= PROPS_LIMITS.count, `must hold at most ${PROPS_LIMITS.count} props`)
  .superRefine((props, context) => {
    for (const [key, value] of Object.entries(props)) {
      const problem = propProblem(value);
      if (problem !== null) context.addIssue({ code: 'custom', path: [key], message: `${problem}: props never carry a person` });
    }
  });

/** Takes out every value that could carry a person and counts them. */
export function safeProps(props: Record<string, string>): { props: Record<string, string>; refused: number } {
  const kept = Object.entries(props).filter(([, value]) => propProblem(value) === null);
  return { props: Object.fromEntries(kept), refused: Object.keys(props).length - kept.length };
}

export interface Goal {
  name: string;
  events: string[];
  paths: string[];
  /** Set by `name@site`; absent means every site and all of them. */
  site?: string;
  /** A goal added after the count began: the migration that counts it back over the days kept. */
  back?: string;
  /** The day such a goal was added. */
  added?: string;
}

const GOAL_NAME = /^[a-z][a-z0-9-]{0,31}$/;

function readGoal(text: string): Goal | string {
  const match = /^([^=@]*)(?:@([^=]*))?=(event|path):(.*)$/.exec(text);
  const name = match?.[1]?.trim() ?? '';
  if (!match || !GOAL_NAME.test(name)) return `"${text}" must be name=event:name or name=path:/path,/path with a lowercase name`;
  const site = match[2] === undefined ? {} : { site: match[2].trim() };
  const values = match[4]!.split(',').map((value) => value.trim());
  if (match[3] === 'event') {
    const bad = values.find((value) => !EVENT_NAME.test(value));
    return bad === undefined ? { name, events: values, paths: [], ...site } : `goal ${name}: "${bad}" must be a lowercase event name`;
  }
  const bad = values.find((value) => !/^\/[^\s?#,|=]*$/.test(value));
  return bad === undefined
    ? { name, events: [], paths: values, ...site }
    : `goal ${name}: "${bad}" must be a path starting with / with no query`;
}

/** A goal on every site clashes with a goal of the same name on any site. */
const clash = (a: Goal, b: Goal) => a.name === b.name && (a.site === undefined || b.site === undefined || a.site === b.site);

/** GOALS: `name=event:signup` or `name=path:/pricing,/pricing/`, separated by `|`; at most 20, names unique. */
export const goalsSetting = z
  .string()
  .default('')
  .transform((raw, ctx) => {
    const goals: Goal[] = [];
    const texts = raw
      .split('|')
      .map((part) => part.trim())
      .filter((part) => part !== '');
    if (texts.length > 20) ctx.addIssue({ code: 'custom', message: 'must name at most 20 goals' });
    for (const text of texts) {
      const goal = readGoal(text);
      if (typeof goal === 'string') ctx.addIssue({ code: 'custom', message: goal });
      else if (goals.some((seen) => clash(seen, goal))) ctx.addIssue({ code: 'custom', message: `goal ${goal.name} is named twice` });
      else goals.push(goal);
    }
    return goals;
  });

/** A page, or a pattern whose `*` stands for any run of characters. */
export function pageMatches(pattern: string, path: string): boolean {
  if (!pattern.includes('*')) return pattern === path;
  const parts = pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('.*')}$`).test(path);
}

export const reaches = (goal: Goal, did: { events: Iterable<string>; paths: Iterable<string> }): boolean =>
  [...did.events].some((event) => goal.events.includes(event)) ||
  [...did.paths].some((path) => goal.paths.some((pattern) => pageMatches(pattern, path)));
