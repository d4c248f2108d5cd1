import { z } from 'zod';
import { EVENT_NAME } from '../core/events/events';
import { isOrigin, isTimeZone, siteNameSchema } from '../core/sites/sites';
import { filterProblem } from './queries';

// The configuration's body (PUT /api/admin/config) and answer (GET), declared once.

const GOAL_NAME = /^[a-z][a-z0-9-]{0,31}$/;
/** A page or a pattern of pages: `*` stands for any run of characters. */
const PAGE = /^\/[^\s?#]{0,300}$/;
const SEGMENT_NAME = /^[\p{L}\p{N}][\p{L}\p{N} _.-]{0,39}$/u;

const nameOf = (pattern: RegExp, words: string) => z.string().regex(pattern, words);
const goalName = nameOf(GOAL_NAME, 'must be a lowercase name of 1 to 32 letters, digits or -, starting with a letter');
const page = z.string().regex(PAGE, 'must be a path starting with /, with no query; * stands for any characters');
const event = z.string().regex(EVENT_NAME, 'must be a lowercase event name of 1 to 40 letters, digits, - or _');

const site = z.strictObject({
  name: siteNameSchema,
  origins: z.array(z.string().refine(isOrigin, 'must be scheme://host[:port] with no path')).max(20, 'must be at most 20 origins'),
  time_zone: z.string().max(64).refine(isTimeZone, 'must be an IANA time zone, like Europe/Paris').optional(),
});

const goal = z
  .strictObject({
    name: goalName,
    event: event.optional(),
    pages: z.array(page).min(1, 'must name at least one page').max(10, 'must name at most 10 pages').optional(),
    site: z.string().max(253).optional(),
    added: z.iso.date().optional(),
  })
  .superRefine((value, context) => {
    if ((value.event === undefined) === (value.pages === undefined))
      context.addIssue({ code: 'custom', path: ['event'], message: 'a goal is an event or pages: give one of them' });
  });

const step = z
  .strictObject({
    name: z.string().trim().min(1, 'must not be empty').max(40, 'must be at most 40 characters'),
    pages: z.array(page).max(10, 'must name at most 10 pages').default([]),
    events: z.array(event).max(10, 'must name at most 10 events').default([]),
  })
  .refine((value) => value.pages.length + value.events.length > 0, { path: ['pages'], message: 'a step needs a page or an event' });

const funnel = z.strictObject({
  name: goalName,
  added: z.iso.date().optional(),
  steps: z.array(step).min(2, 'must have at least 2 steps').max(8, 'must have at most 8 steps'),
});

const segment = z.strictObject({
  name: nameOf(SEGMENT_NAME, 'must be 1 to 40 letters, digits, spaces, _, . or -, starting with a letter or digit'),
  filters: z
    .array(
      z
        .string()
        .max(1024)
        .refine((text) => filterProblem(text) === null, { error: (issue) => filterProblem(String(issue.input)) ?? '' }),
    )
    .min(1, 'must hold at least one filter')
    .max(10, 'must hold at most 10 filters'),
});

const annotation = z.strictObject({
  day: z.iso.date({ error: 'must be a day as YYYY-MM-DD, like 2026-10-23' }),
  note: z.string().trim().min(1, 'must not be empty').max(140, 'must be at most 140 characters'),
});

const email = z.strictObject({
  site: z.string().max(253),
  recipients: z
    .array(z.email({ error: 'must be an email address' }).max(254))
    .max(20, 'must name at most 20 recipients')
    .default([])
    .meta({ description: 'Each is sent a link to confirm first; mail goes only to those who confirmed and have not unsubscribed.' }),
  reports: z
    .array(z.enum(['weekly', 'monthly'], 'must be weekly or monthly'))
    .max(2)
    .default([])
    .meta({ description: "Sent once each local week (Monday to Sunday) or month is over, in the site's zone." }),
  spike_people: z
    .int()
    .min(1)
    .max(1_000_000)
    .optional()
    .meta({ description: 'Alert when this many people or more came in the last 30 minutes; once an episode.' }),
  drop_percent: z
    .int()
    .min(1)
    .max(99)
    .optional()
    .meta({ description: "Alert when a day's people fall below this percent of the same weekday the week before; once an episode." }),
});

/** Each name once in its list. */
function unique<T>(list: readonly T[], key: (item: T) => string, path: string, context: z.RefinementCtx): void {
  list.forEach((item, at) => {
    if (list.findIndex((other) => key(other) === key(item)) !== at)
      context.addIssue({ code: 'custom', path: [path, at, 'name'], message: `${key(item)} is named twice` });
  });
}

export const configBodySchema = z
  .strictObject({
    sites: z.array(site).min(1, 'must hold at least one site').max(50, 'must hold at most 50 sites'),
    goals: z.array(goal).max(20, 'must hold at most 20 goals').default([]),
    funnels: z.array(funnel).max(10, 'must hold at most 10 funnels').default([]),
    segments: z.array(segment).max(30, 'must hold at most 30 segments').default([]),
    annotations: z.array(annotation).max(500, 'must hold at most 500 annotations').default([]),
    email: z.array(email).max(50, 'must hold at most 50 sites').default([]),
  })
  .superRefine((config, context) => {
    config.email.forEach((one, at) => {
      if (config.email.findIndex((other) => other.site === one.site) !== at)
        context.addIssue({ code: 'custom', path: ['email', at, 'site'], message: `${one.site} is named twice` });
      if (!config.sites.some((declared) => declared.name === one.site))
        context.addIssue({ code: 'custom', path: ['email', at, 'site'], message: 'must be a site of this configuration' });
    });
    unique(config.sites, (one) => one.name, 'sites', context);
    unique(config.goals, (one) => `${one.name}@${one.site ?? ''}`, 'goals', context);
    unique(config.funnels, (one) => one.name, 'funnels', context);
    unique(config.segments, (one) => one.name, 'segments', context);
    const origins = config.sites.flatMap((one) => one.origins);
    config.sites.forEach((one, at) => {
      if (one.origins.some((origin) => origins.indexOf(origin) !== origins.lastIndexOf(origin)))
        context.addIssue({ code: 'custom', path: ['sites', at, 'origins'], message: "an origin is another site's too" });
    });
    config.goals.forEach((one, at) => {
      if (one.site !== undefined && !config.sites.some((declared) => declared.name === one.site))
        context.addIssue({ code: 'custom', path: ['goals', at, 'site'], message: 'must be a site of this configuration' });
    });
  });

export type ConfigBody = z.infer<typeof configBodySchema>;

const added = z.iso.date().meta({
  description: 'The day it was added or last changed (set by the app; one sent back is let be): its people and first touch count from it.',
});

export const ConfigAnswer = z
  .object({
    sites: z.array(site),
    goals: z.array(goal.safeExtend({ added })),
    funnels: z.array(funnel.safeExtend({ added })),
    segments: z.array(segment),
    annotations: z.array(annotation),
    email: z.array(email),
  })
  .meta({
    id: 'Config',
    description: "The deployment's configuration; its version is the answer's `ETag`, sent back as `If-Match` to change it.",
  });

export type ConfigAnswerBody = z.infer<typeof ConfigAnswer>;
