import { addDays } from '../../core/days';
import { ok, type Result } from '../../core/result';
import { EMAIL_PK, type AlertState, type EmailStore } from '../../core/store/email';
import type { ConfigEmail } from '../../core/store/config';
import { activityQuerySchema } from '../../contract/queries';
import { periodReport, type ActivityDeps } from '../activity/report';
import { nowCard, NOW_MINUTES, type NowDeps } from '../now';
import type { Block } from './letter';

export type AlertKind = 'spike' | 'drop';

/** Whether the alert's condition holds now, and what its mail says when an episode begins. */
export interface Reading {
  holds: boolean;
  subject: string;
  blocks: Block[];
}

export async function spikeReading(site: string, threshold: number, deps: NowDeps): Promise<Result<Reading | null>> {
  const now = await nowCard(deps);
  if (!now.ok) return now;
  const people = now.value.people_last_30_minutes;
  if (people === null) return ok(null);
  const paths = (now.value.top_paths ?? []).slice(0, 5).map((row) => [row.path, String(row.requests)]);
  return ok({
    holds: people >= threshold,
    subject: `Traffic spike on ${site}: ${people} people in the last ${NOW_MINUTES} minutes`,
    blocks: [
      { lines: [`${people} people in the last ${NOW_MINUTES} minutes, at or above the ${threshold} set.`] },
      { head: ['Pages now', 'requests'], rows: paths },
    ],
  });
}

/** Yesterday, a whole local day, against the same weekday a week before. */
export async function dropReading(site: string, percent: number, yesterday: string, deps: ActivityDeps): Promise<Result<Reading | null>> {
  const weekBefore = addDays(yesterday, -7);
  const report = await periodReport(activityQuerySchema.parse({ from: weekBefore, to: yesterday }), deps);
  if (!report.ok) return report;
  const days = report.value.by_day;
  const people = days?.find((day) => day.day === yesterday)?.people;
  const before = days?.find((day) => day.day === weekBefore)?.people;
  if (people === undefined || before === undefined) return ok(null);
  return ok({
    holds: before > 0 && people * 100 < before * percent,
    subject: `Traffic drop on ${site}: ${people} people on ${yesterday}, ${before} a week before`,
    blocks: [
      { lines: [`${people} people on ${yesterday}, below ${percent}% of the ${before} on ${weekBefore}, the same weekday a week before.`] },
    ],
  });
}

export const alertId = (site: string, kind: AlertKind) => `alert:${kind}:${site}`;

/**
 * Moves the alert's state by what was read: an episode begins when the condition first holds and ends when it clears.
 * Answers the episode the condition holds in, or null; a lost race answers what the other run wrote.
 */
export async function episodeOf(
  alerts: EmailStore['alerts'],
  id: string,
  holds: boolean,
  now: Date,
  checked?: string,
): Promise<number | null> {
  const kept = await alerts.read(id);
  const state = kept?.doc ?? null;
  const active = state?.active ?? false;
  if (holds === active && (checked === undefined || state?.checked === checked)) return active ? state!.episode : null;
  const episode = (state?.episode ?? 0) + (holds && !active ? 1 : 0);
  const next: AlertState = {
    id,
    pk: EMAIL_PK,
    kind: 'alert-state',
    active: holds,
    episode,
    changed_at: holds === active ? (state?.changed_at ?? now.toISOString()) : now.toISOString(),
    ...(checked === undefined ? {} : { checked }),
  };
  const written = kept === null ? await alerts.create(next) : await alerts.replace(next, kept.etag);
  if (written === 'created' || written === 'replaced') return holds ? episode : null;
  const again = await alerts.read(id);
  return again?.doc.active ? again.doc.episode : null;
}

/** The alerts a site's settings ask for. */
export const alertsOf = (settings: ConfigEmail): Array<{ kind: AlertKind; threshold: number }> => [
  ...(settings.spike_people === undefined ? [] : [{ kind: 'spike' as const, threshold: settings.spike_people }]),
  ...(settings.drop_percent === undefined ? [] : [{ kind: 'drop' as const, threshold: settings.drop_percent }]),
];
