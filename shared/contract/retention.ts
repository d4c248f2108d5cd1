import { z } from 'zod';
import { ActivityCost, Availability, count, utcDay, zoneFields } from './common';

const month = () => z.string().regex(/^\d{4}-\d{2}$/);

const share = () =>
  z.number().min(0).max(1).meta({ description: "The cohort's people who came then, as a share of the cohort (0 for an empty cohort)." });

export const RetentionMonth = z
  .object({ month: month(), people: count(), share: share() })
  .meta({ id: 'RetentionMonth', description: "The cohort's people who came in one month (its own first), each once." });

export const MonthCohort = z
  .object({
    cohort: month().meta({ description: 'The month its people were first counted in.' }),
    people: count().meta({ description: 'The people first counted in that month (all of them, with a filter too).' }),
    months: z.array(RetentionMonth).meta({ description: 'The cohort month and every later month asked, oldest first.' }),
  })
  .meta({ id: 'MonthCohort' });

export const RetentionWeek = z
  .object({ week: utcDay().meta({ description: 'The Monday of the week.' }), people: count(), share: share() })
  .meta({ id: 'RetentionWeek', description: "The cohort's people who came in one week (its own first), each once." });

export const WeekCohort = z
  .object({
    cohort: utcDay().meta({ description: 'The Monday of the week its people were first counted in.' }),
    people: count(),
    weeks: z.array(RetentionWeek),
  })
  .meta({ id: 'WeekCohort' });

export const RetentionCard = z
  .object({
    months: z.int().min(1).max(36),
    from: month().meta({ description: 'The first cohort month.' }),
    to: month().meta({ description: "This month, in the site's zone." }),
    error: z.number().min(0).max(1).meta({ description: 'The stated relative error of every figure (0.02).' }),
    cohorts: z
      .array(MonthCohort)
      .nullable()
      .meta({ description: 'One cohort a month asked, oldest first; null when the store cannot answer.' }),
    weeks: z.array(WeekCohort).nullable().meta({
      description:
        'The last 12 weeks as cohorts, oldest first; null when the store cannot answer, and with a filter (weeks are kept for the whole site only).',
    }),
    identity_from: utcDay().optional().meta({
      description:
        'Only when the months or weeks asked span the switch to person ids nobody can reverse: its first day. A person seen on both sides of it may count twice in the cells of its month and week. Absent otherwise.',
    }),
    ...zoneFields,
    availability: Availability,
    cost: ActivityCost,
  })
  .meta({
    id: 'RetentionCard',
    description:
      "Retention by first month: the people first counted in each month and how many of them came in it and in each later month, each once a month (HyperLogLog estimates within `error`), and the same for the last 12 weeks. People are counted from their first day as their visitor record holds it (imported logs included), and only from when the fold kept people's first days. With a filter, each cohort is still all its people, each month's cell counts those of them who came then on a visitor-day holding the filter's value (from when visitor-days kept their people's first days), and `weeks` is null.",
  });

export type RetentionAnswer = z.infer<typeof RetentionCard>;
