import { z } from 'zod';
import { count, utcDay, zoneFields } from './common';

export const PeopleOnDay = z.object({ day: utcDay(), people: count() }).meta({ id: 'PeopleOnDay' });
export const VisitsOnDay = z.object({ day: utcDay(), visits: count() }).meta({ id: 'VisitsOnDay' });

const behindSince = z.iso.datetime({ offset: true }).nullable().meta({
  description:
    'Since when the recount timer has not brought the count up to date (its figures are those of the last run that did); null when it is up to date.',
});

export const PeopleCount = z
  .object({
    people_all_time: count().nullable(),
    people_new_today: count().nullable(),
    people_new_month: count().nullable(),
    scanners_left_out: count().nullable(),
    counted_from: utcDay().nullable(),
    people_new_by_day: z
      .array(PeopleOnDay)
      .length(30)
      .nullable()
      .meta({ description: "The last 30 days in the site's zone, oldest first, ending today." }),
    source: z.string().meta({ description: 'Which store answered, or why none could (then every figure is null).' }),
    visits: z.object({ all_time: count(), from: utcDay(), by_day: z.array(VisitsOnDay).length(30) }).nullable(),
    behind_since: behindSince,
    ...zoneFields,
  })
  .meta({ id: 'PeopleCount', description: 'The count as the Admin tab reads it.' });

export type PeopleCountAnswer = z.infer<typeof PeopleCount>;

export const Pulse = z
  .object({
    site: z.string().meta({ description: 'The site counted: the one asked (`*` for all sites), else the first declared.' }),
    people_all_time: count().nullable(),
    people_new_by_day: z.array(PeopleOnDay).length(30).nullable(),
    counted_from: utcDay().nullable(),
    visits_all_time: count().nullable(),
    visits_from: utcDay().nullable(),
    visits_by_day: z.array(VisitsOnDay).length(30).nullable(),
    source: z.string(),
    behind_since: behindSince,
    goal: z
      .object({ name: z.string(), people_all_time: count().nullable() })
      .optional()
      .meta({ description: "PULSE_GOAL's people all time (absent when PULSE_GOAL is not set)." }),
    ...zoneFields,
  })
  .meta({ id: 'Pulse', description: 'The same count, flat.' });

export type PulseAnswer = z.infer<typeof Pulse>;
