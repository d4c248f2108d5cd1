import { z } from 'zod';
import { ActivityCost, Availability, count, HostCount, instant, PathCount, utcDay, zoneFields } from './common';
import { DIMENSIONS, EXPORTED, NAMES, type ExportedRow, type NamesCard } from '../core/dimensions';

/** A visitor-day's kind, by the one rule. */
/** Answered under its first name, `store`, so no reader of the API breaks. */
const servedByAnswer = z.string().meta({ description: 'The server that served it: `served_by` on the ingest API.' });

export const Who = z
  .enum(['people', 'scanners', 'self'])
  .meta({ id: 'Who', description: 'Who a visitor is: a person, a bot (`scanners`, its first name) or the site itself.' });

export const BotReason = z.enum(['agent', 'path', 'network', 'signals']).meta({
  id: 'BotReason',
  description:
    "Why a request looked like a bot, the first that holds in this order: its agent named a bot (crawlers, link previews, HTTP libraries, headless browsers, no agent), its path probes for secrets, its address is on a hosting network, or its headers are ones only automation sends (shared/core/identity/kinds.ts). The order is also the tie-break's, surest first.",
});

export const LeftOutByReason = z.object({ agent: count(), path: count(), network: count(), signals: count() }).meta({
  id: 'LeftOutByReason',
  description:
    "A day's scanner visitor-days by the reason they were left out, every reason listed (zero when none). A visitor-day counts once, under the reason most of its bot requests had across its stores, a tie going to the surer reason (agent, path, network, signals); a scanner whose bot requests carried no reason (kept before reasons were carried) is in `scanners` only, so these add up to at most `scanners`.",
});

const kinds = {
  people: count(),
  scanners: count(),
  self: count(),
  total: count(),
  left_out: LeftOutByReason,
  page_loads: count().meta({ description: "People's page loads." }),
};

export const DayOfKinds = z
  .object({
    day: utcDay(),
    ...kinds,
    people_new: count()
      .nullable()
      .meta({ description: 'The people first counted that day (unfiltered, exact; filtered, estimated from the sketch of new people).' }),
    returning: count().nullable().meta({
      description:
        "The day's people (each once, estimated) first counted before that day: the estimate of the day's sketch of returning people. Null on a day folded before returning people were kept.",
    }),
  })
  .meta({ id: 'DayOfKinds' });

export const MonthOfKinds = z
  .object({ month: z.string().regex(/^\d{4}-\d{2}$/), ...kinds })
  .meta({ id: 'MonthOfKinds', description: 'One UTC month of visitor-days by kind.' });

const clockHour = () =>
  z.iso.datetime({ offset: true }).meta({
    description: "The hour's first instant as the site's clock showed it, with its offset: `2026-11-01T01:00:00-05:00`.",
  });

export const StoreHour = z
  .object({
    store: servedByAnswer,
    hour: clockHour(),
    requests: count(),
    bots: count(),
    self: count(),
    top_paths: z.array(PathCount).max(5),
  })
  .meta({ id: 'StoreHour', description: "One store's requests in one local clock hour of the site's zone." });

export const Sources = z
  .object({ linkedin: count(), github: count(), search: count(), other: count(), typed: count(), other_hosts: z.array(HostCount) })
  .meta({ id: 'Sources' });

export const FunnelCount = z.object({ step: z.string(), paths: z.array(z.string()), visitor_days: count() }).meta({ id: 'FunnelCount' });

export const CountryCount = z
  .object({
    country: z
      .string()
      .regex(/^[A-Z]{2}$/)
      .meta({ description: 'ISO 3166-1 alpha-2, upper case; `XX` unknown (or kept before countries were).' }),
    visitor_days: count(),
  })
  .meta({ id: 'CountryCount', description: "People's visitor-days in one country." });

export const NameCount = z
  .object({
    name: z
      .string()
      .regex(/^[a-z0-9 .-]{1,32}$/)
      .meta({ description: 'Lowercase, no versions (`chrome`, `macos`, `mobile`); `other` / `unknown` for an agent no parser knows.' }),
    visitor_days: count(),
  })
  .meta({ id: 'NameCount', description: "People's visitor-days that used one browser, system or device type." });

const namesLists = Object.fromEntries(NAMES.map((row) => [row.card, z.array(NameCount)])) as Record<
  NamesCard,
  z.ZodArray<typeof NameCount>
>;

export const Devices = z.object(namesLists).meta({
  id: 'Devices',
  description:
    "People's visitor-days by browser, system and device type, most first; a visitor-day counts once under each name its requests came with, so a list can add up to more than the people.",
});

const tag = () =>
  z
    .string()
    .min(1)
    .max(40)
    .nullable()
    .meta({ description: 'The cleaned tag (lowercase, at most 40 characters); null when the link did not carry it.' });

export const CampaignCount = z.object({ source: tag(), medium: tag(), campaign: tag(), page_loads: count() }).meta({
  id: 'CampaignCount',
  description: "People's page loads with one campaign (`utm_source` or `ref`, `utm_medium`, `utm_campaign`).",
});

export const PeopleInPeriod = z
  .object({
    estimate: count(),
    error: z.number().min(0).max(1).meta({ description: 'The stated relative error (0.02).' }),
    complete: z
      .boolean()
      .meta({ description: "False when some day was kept before the people's sketch: the estimate is then a lower bound." }),
  })
  .meta({
    id: 'PeopleInPeriod',
    description: 'The people of the period, each counted once (a HyperLogLog estimate over the person hashes).',
  });

const headline = {
  people: count(),
  people_new: count().nullable().meta({
    description:
      'The people first counted in the period: exact from the visitor records without filters; with filters, estimated from the sketch of new people of the matching visitor-days.',
  }),
  returning: count().meta({
    description:
      "The period's people with a day in it after their first day (each once, estimated): the union of its days' returning people, so it may overlap `people_new` and a day's `returning` never exceeds it. Days whose `returning` is null (folded before returning people were kept) add no one.",
  }),
  visits: count(),
  page_loads: count(),
  conversions: count().meta({ description: "People's visitor-days that reached a goal of GOALS, summed over the goals." }),
  views_per_visit: z.number().min(0).nullable().meta({
    description: "People's page loads a visit (a visitor-day), to two decimals. Null when no visit is timed (see `visit_duration`).",
  }),
  bounce_rate: z.number().min(0).max(100).nullable().meta({
    description: "The percent of people's visits with one page load and no event, to one decimal. Null when no visit is timed.",
  }),
  visit_duration: z.int().min(0).nullable().meta({
    description:
      'Mean seconds a visit: the sum of its engagements, or, for a visit that sent none (a site counted from its server), its first-to-last request (docs/time-on-site.md). Null when the period has no visit, or when every day of it was folded before time on site was kept.',
  }),
  time_on_site_from: utcDay().optional().meta({
    description:
      'Only when some day of the period was folded before time on site was kept: the first day the three figures above count from (they leave out the days before it). Absent otherwise.',
  }),
};

export const Headline = z.object(headline).meta({
  id: 'Headline',
  description:
    "The period's people (each once, estimated), new and returning people, visits by people, people's page loads and goal conversions. With filters, visits are the matching people's visitor-days (one visit each).",
});

export const LocalHour = z
  .object({
    hour: clockHour(),
    requests: count(),
    bots: count(),
    self: count(),
  })
  .meta({ id: 'LocalHour', description: "One local clock hour of the site's zone, every store together." });

const byHour = () =>
  z.array(LocalHour).optional().meta({
    description:
      'A period of one or two days: every local clock hour of its days, oldest first; 23 or 25 a day on the days clocks change. Absent otherwise.',
  });

export const PreviousPeriod = z
  .object({
    from: utcDay(),
    to: utcDay(),
    ...headline,
    by_hour: byHour(),
    by_day: z.array(DayOfKinds).optional().meta({
      description: 'Every day of the period before, oldest first, for charting it beside this one (absent past 400 days).',
    }),
    by_month: z
      .array(MonthOfKinds)
      .optional()
      .meta({ description: 'The period before by month, for a period over 400 days (absent otherwise).' }),
  })
  .meta({
    id: 'PreviousPeriod',
    description: 'The headline figures of the period of the same length just before, and its days (or months) by kind.',
  });

export const PageRow = z
  .object({
    path: z.string(),
    page_loads: count(),
    people: count(),
    time_on_page: z.int().min(0).nullable().meta({
      description: 'Mean engaged seconds of the visits that engaged with it (sent an engagement from it); null when none did.',
    }),
    scroll_depth: z
      .int()
      .min(0)
      .max(100)
      .nullable()
      .meta({ description: "Mean of those visits' deepest scroll on it, in percent; null when none engaged with it." }),
  })
  .meta({
    id: 'PageRow',
    description: "A path: people's page loads of it, people's visitor-days that requested it, and how long and how far they read it.",
  });

export const EntryPageRow = z
  .object({ path: z.string(), people: count() })
  .meta({ id: 'EntryPageRow', description: "A path people's visitor-days began on, and how many." });

export const ExitPageRow = z
  .object({ path: z.string(), people: count() })
  .meta({ id: 'ExitPageRow', description: "A path people's visitor-days ended on (their last page load), and how many." });

export const ReferrerRow = z
  .object({ host: z.string(), page_loads: count(), people: count() })
  .meta({ id: 'ReferrerRow', description: "A site that links here: people's page loads from it, and their visitor-days." });

export const RollupStatus = z
  .object({
    complete: z.boolean(),
    built_back_to: utcDay().nullable(),
    filters_from: z.string().optional().meta({
      description:
        'With filters: the first day the fold keeps filter cells and month rollups from, or, with several filters while the timer still writes the day files of the days kept before them, the first day they are answered from; a period before it is `complete: false`.',
    }),
  })
  .meta({
    id: 'RollupStatus',
    description:
      'Whether every day of the period has its day rollup; while the timer builds the rollups of days kept before them, the days before `built_back_to` are not in the figures yet.',
  });

export const TouchRow = z.object({ name: z.string(), people: count(), conversions: count() }).meta({
  id: 'TouchRow',
  description:
    "One first touch: the goal's people ever whose first visit came with it, and their conversions ever (a person's day that reached the goal, each once). `unknown`: people counted before first touches were kept; `(none)`: a first visit with no referrer or campaign; `(other)`: names past the 100 kept.",
});

export const FirstTouch = z
  .object({
    sources: z.array(TouchRow).meta({ description: 'By the first visit’s source group (linkedin, github, search, other, typed).' }),
    referrers: z.array(TouchRow).meta({ description: 'By the first visit’s referrer host.' }),
    campaigns: z.array(TouchRow).meta({ description: 'By the first visit’s campaign, `source|medium|campaign`.' }),
    days_to_convert: z
      .object({ '0': count(), '1': count(), '2-7': count(), '8-30': count(), '31+': count(), unknown: count() })
      .meta({ description: "The goal's people by the days from their first visit to the first time they reached it." }),
  })
  .meta({
    id: 'FirstTouch',
    description: 'All time, whatever the period: where the people who reached the goal first came from (at most 20 names each).',
  });

export const GoalRow = z
  .object({
    goal: z.string(),
    conversions: count(),
    rate: z.number().min(0),
    people_all_time: count(),
    first_touch: FirstTouch,
    holds_from: utcDay().nullable().optional().meta({
      description:
        'Only while a goal added in the dashboard is counted back over the days kept: the first day its conversions hold from (null before the first is counted); before it, a day counts its most reached page or event, never more than the truth.',
    }),
  })
  .meta({
    id: 'GoalRow',
    description:
      "A goal (GOALS): people's visitor-days that reached it in the period, their share of the period's people's visitor-days, and the people who have ever reached it, each once.",
  });

export const FunnelRow = z
  .object({
    funnel: z.string(),
    in_order: z.boolean().meta({
      description:
        "Whether every visit's steps were counted in their order: step k when it was reached at or after step k-1 in the visit. Visits whose visitor-days were kept before each step's first time was count at step k when they reached steps 1 to k that day, in any order.",
    }),
    in_order_from: z.iso
      .date()
      .optional()
      .meta({ description: 'When not every visit is in order: the day from which steps are counted in their order.' }),
    steps: z.array(
      z.object({
        name: z.string(),
        visits: count().meta({ description: "People's visits that reached this step and every step before it." }),
        drop_off: count().meta({ description: "The step before's visits that did not reach this one (0 for the first)." }),
      }),
    ),
    holds_from: utcDay().nullable().optional().meta({
      description:
        'Only while a funnel added in the dashboard is counted back over the days kept: the first day its figures hold from (null before the first is counted); days before it count 0.',
    }),
  })
  .meta({ id: 'FunnelRow', description: "A funnel of the configuration: each step's visits and drop-off in the period." });

export const EventRow = z
  .object({
    event: z.string(),
    count: count(),
    visitor_days: count(),
    props: z.record(z.string(), z.array(z.object({ value: z.string(), count: count() }))),
  })
  .meta({
    id: 'EventRow',
    description: "People's events of a name in the period, their visitor-days, and each prop's most frequent values.",
  });

export const ImportedPeriod = z
  .object({
    tools: z
      .array(z.string().regex(/^[a-z0-9-]{1,32}$/))
      .min(1)
      .meta({ description: 'The tools the totals came from (`plausible`).' }),
    from: utcDay().meta({ description: 'The first day of the period with imported totals.' }),
    to: utcDay().meta({ description: 'The last day of the period with imported totals.' }),
    days: z.int().min(1).meta({ description: 'How many days of the period have imported totals.' }),
    visits: count().meta({
      description: "The tools' daily visitors summed over those days: visits by people (one a person a day), as the tool counted them.",
    }),
    page_loads: count().nullable().meta({ description: "The tools' pageviews summed; null when no day carried them." }),
    pages: z
      .array(z.object({ path: z.string(), page_loads: count() }))
      .meta({ description: 'Page loads by path (the query string dropped), most first, at most 50.' }),
    sources: z
      .array(z.object({ source: z.string(), visitor_days: count() }))
      .meta({ description: "Visitor-days by the tool's own source name (`Google`, `Direct / None`), most first, at most 50." }),
    countries: z
      .array(z.object({ country: z.string().regex(/^[A-Z]{2}$/), visitor_days: count() }))
      .meta({ description: 'Visitor-days by two-letter country code, most first, at most 50.' }),
  })
  .meta({
    id: 'ImportedPeriod',
    description:
      "The totals of the period's days imported from another tool (Plausible's export, `npm run import`), summed, apart from every figure visitor-days make. People cannot be rebuilt from daily totals: nothing here is a person, and `people_in_period` and `headline.people` leave these days out; `headline.visits` holds them (the larger of a day's counted and imported visits).",
  });

export const Filter = z
  .object({
    dimension: z.enum(DIMENSIONS),
    value: z.string().min(1),
    negated: z.boolean().meta({ description: 'True for `!dimension:value`: the visitor-days that do not hold the value.' }),
  })
  .meta({
    id: 'Filter',
    description:
      "One filter of a read, as asked: only people's visitor-days that hold `value` of `dimension` (or, negated, that do not) are counted.",
  });

const orNull = <T extends z.ZodType>(schema: T) => schema.nullable();

export const Clamped = z
  .object({
    asked_from: utcDay(),
    asked_to: utcDay(),
  })
  .meta({
    id: 'Clamped',
    description:
      'The range as asked, when it was over 400 days and reached before the first counted day (or the first imported day) or after today: `from` and `to` are the days answered instead, so a read costs the days that can hold data, whatever it asks.',
  });

export const PeriodReport = z
  .object({
    days: z.int().min(1).nullable().meta({ description: 'How many days the period holds.' }),
    from: utcDay().nullable(),
    to: utcDay().nullable(),
    by_day: z.array(DayOfKinds).nullable().meta({
      description: 'Every day of the period, oldest first; null past 400 days (then `by_month`) or when the store cannot answer.',
    }),
    by_month: z.array(MonthOfKinds).optional().meta({ description: 'A period over 400 days, by month (absent otherwise).' }),
    hours: orNull(z.array(StoreHour)),
    by_hour: byHour(),
    sources: orNull(Sources),
    path: orNull(z.array(FunnelCount)),
    countries: orNull(z.array(CountryCount)),
    devices: orNull(Devices),
    campaigns: orNull(z.array(CampaignCount)),
    people_in_period: orNull(PeopleInPeriod),
    headline: orNull(Headline),
    previous: orNull(PreviousPeriod).meta({ description: 'Null for `days=all` (nothing is before it) or when the store cannot answer.' }),
    pages: orNull(z.array(PageRow)),
    entry_pages: orNull(z.array(EntryPageRow)),
    exit_pages: orNull(z.array(ExitPageRow)),
    referrers: orNull(z.array(ReferrerRow)),
    goals: orNull(z.array(GoalRow)),
    funnels: z.array(FunnelRow).optional().meta({
      description: "Only when the configuration has funnels: each funnel's steps, their visits and drop-offs, under the filters.",
    }),
    events: orNull(z.array(EventRow)),
    rollups: orNull(RollupStatus),
    imported: ImportedPeriod.optional().meta({
      description: 'Only when some day of the period has totals imported from another tool; absent otherwise.',
    }),
    clamped: Clamped.optional().meta({
      description: 'Only when the range asked was over 400 days and reached past the days that can hold data; absent otherwise.',
    }),
    identity_from: utcDay().optional().meta({
      description:
        'Only when the period spans the switch to person ids nobody can reverse: its first day. A person seen on both sides of it may count twice in the figures of a period across it (people in the period, returning); all-time counts are unchanged. Absent otherwise.',
    }),
    filters: z
      .array(Filter)
      .nullable()
      .meta({ description: "The filters the read was asked with, echoed (empty without), each segment's in its place." }),
    segments: z
      .array(z.string())
      .optional()
      .meta({ description: 'Only when `filter=segment:<name>` was asked: the saved segments whose filters the read added.' }),
    annotations: z
      .array(z.object({ day: utcDay(), note: z.string() }))
      .optional()
      .meta({ description: "Only when the period holds an annotation's day: each, oldest first." }),
    ...zoneFields,
    availability: Availability,
    cost: ActivityCost,
  })
  .meta({
    id: 'PeriodReport',
    description:
      "Who comes over a period: its days by kind, the last 48 hours by store, people's page loads by source, the path through, pages, entry pages, referrers, countries, devices and campaigns, the period's people each once and its headline figures beside the period before. All from the day rollups of the days asked, where the totals imported from another tool are kept too (`imported`). Null figures when the store cannot answer.",
  });

export const VisitorRow = z
  .object({
    token: z.string().regex(/^[0-9a-f]{32}$/),
    network: z.string(),
    store: servedByAnswer,
    kind: Who,
    left_out: BotReason.nullable().meta({
      description:
        "Why the token was left out that day when it was a scanner: the reason the day's `by_day[].left_out` counts it under; null for any other kind, and for a scanner whose bot requests carried no reason (kept before reasons were carried).",
    }),
    first_seen: instant(),
    last_seen: instant(),
    requests: count(),
    bots: count(),
    self: count(),
    page_loads: count(),
    top_paths: z.array(PathCount).max(10),
    sources: z.array(HostCount),
  })
  .meta({ id: 'VisitorRow' });

export const DayVisitors = z
  .object({
    day: utcDay(),
    visitors: z.array(VisitorRow).nullable(),
    ...zoneFields,
    availability: Availability,
    next: z
      .string()
      .regex(/^[A-Za-z0-9_-]+$/)
      .nullable()
      .meta({ description: 'The token of the next page (pass it as `next=`); null on the last page.' }),
  })
  .meta({ id: 'DayVisitors', description: "One page (at most 100 rows) of the day's visitor-days, first seen first." });

export const MinuteOfPeople = z
  .object({ minute: instant().meta({ description: "The minute's start." }), people: count() })
  .meta({ id: 'MinuteOfPeople' });

export const NowCard = z
  .object({
    from: instant().meta({ description: 'The start of the first of the 30 minutes.' }),
    to: instant().meta({ description: 'The clock when read.' }),
    people_last_30_minutes: count().nullable(),
    by_minute: z.array(MinuteOfPeople).length(30).nullable(),
    top_paths: z.array(PathCount).max(10).nullable(),
    ...zoneFields,
    availability: Availability,
    cost: ActivityCost,
  })
  .meta({
    id: 'NowCard',
    description:
      "Who is on the site now: the distinct people's daily tokens of the last 30 minutes (the current one included), by minute oldest first, and their ten most requested paths, read from the facts keep-hits wrote; null figures when the store cannot answer.",
  });

export type PeriodReportAnswer = z.infer<typeof PeriodReport>;
export type DayVisitorsAnswer = z.infer<typeof DayVisitors>;
export type NowAnswer = z.infer<typeof NowCard>;
export type FilterDimension = (typeof DIMENSIONS)[number];

type ExportItem<D extends ExportedRow['filter']> = D extends 'country'
  ? typeof CountryCount
  : D extends 'campaign'
    ? typeof CampaignCount
    : typeof NameCount;
const exportItem = (dimension: ExportedRow['filter']) =>
  dimension === 'country' ? CountryCount : dimension === 'campaign' ? CampaignCount : NameCount;
/** The export's lists, one a column, in their places. */
const exportLists = Object.fromEntries(EXPORTED.map((row) => [row.export.column, z.array(exportItem(row.filter))])) as {
  [R in ExportedRow as R['export']['column']]: z.ZodArray<ExportItem<R['filter']>>;
};

/** `a, b and c`. */
const listWords = (names: readonly string[]) =>
  names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;

export const ExportRow = z
  .object({
    day: utcDay(),
    people_new: count().nullable().meta({ description: 'Null with filters.' }),
    visits: count(),
    visitor_days: z.object({ people: count(), scanners: count(), self: count(), total: count() }),
    sources: z.object({ linkedin: count(), github: count(), search: count(), other: count(), typed: count() }),
    ...exportLists,
    views_per_visit: headline.views_per_visit,
    bounce_rate: headline.bounce_rate,
    visit_duration: headline.visit_duration,
  })
  .meta({
    id: 'ExportRow',
    description: `One UTC day: people new, visits, visitor-days by kind, and people's sources, ${listWords(EXPORTED.map((row) => row.export.column))}, then its views a visit, bounce rate and visit duration; zeros on a quiet day (the last three null: no visit, or a day folded before time on site was kept).`,
  });

const CSV_FIGURES = [
  'day',
  'people_new',
  'visits',
  'people',
  'scanners',
  'self',
  'total',
  'linkedin',
  'github',
  'search',
  'other',
  'typed',
] as const;

/** Time on site's figures, after the lists, so the columns before keep their places. */
export const CSV_TIME = ['views_per_visit', 'bounce_rate', 'visit_duration'] as const;

/** The figures, then each exported dimension's list, then time on site. */
export const CSV_COLUMNS = [...CSV_FIGURES, ...EXPORTED.map((row) => row.export.column), ...CSV_TIME];

export const ExportDays = z
  .object({
    from: utcDay(),
    to: utcDay(),
    days: z.int().min(1).max(400),
    rows: z.array(ExportRow),
    filters: z.array(Filter).optional(),
    complete: z.boolean().optional().meta({
      description:
        'With filters: false when a day of the range is before `filters_from`: its row is zeros. Several filters are whole once the timer has written the day files of the days kept before them.',
    }),
    filters_from: z.string().optional().meta({
      description:
        'With filters: the first day the fold keeps filter cells from, or the first day several filters are answered from while the timer writes the older day files.',
    }),
    identity_from: utcDay().optional().meta({
      description:
        'Only when the range spans the switch to person ids nobody can reverse: its first day; the day before it may count a person twice. Absent otherwise.',
    }),
    ...zoneFields,
  })
  .meta({ id: 'ExportDays', description: 'One row a day from `from` to `to`, oldest first.' });

export type ExportDaysAnswer = z.infer<typeof ExportDays>;
