import type { Settings } from '../config/settings';
import { daysEnding } from '../counting/days';
import { utcDay } from '../identity/tokens';
import { asOperator, type OperatorSettings, operatorSettings } from '../admin/auth';
import { errorAnswer, type Answer } from '../http/envelope';
import type { IncomingRequest } from '../http/request';
import type { Clock } from '../ports/clock';
import type { Logger } from '../ports/logger';
import { costOf, readActivity, type ActivityStore } from './availability';
import { byDay } from './by-day';
import { lastHours } from './days';
import { funnelOf, type FunnelStep } from './funnel';
import { HOURS_SHOWN, hoursOf } from './hours';
import { activityQuerySchema, readQuery } from './query';
import { sourcesOf } from './sources';
import { campaignsOf, countriesOf, devicesOf } from './audience';
import { tokenDays } from './token-days';

/** What the Activity card's reads need. */
export interface ActivityDeps {
  store: ActivityStore;
  clock: Clock;
  logger: Logger;
  funnel: readonly FunnelStep[];
  operator: OperatorSettings;
}

/** The deps from what the composition root holds: its store, clock and logger, and three settings. */
export const activityDepsOf = (
  root: Omit<ActivityDeps, 'funnel' | 'operator'> & { settings: Pick<Settings, 'FUNNEL_STEPS' | 'OPERATOR_KEY' | 'HASH_KEY'> },
): ActivityDeps => ({
  store: root.store,
  clock: root.clock,
  logger: root.logger,
  funnel: root.settings.FUNNEL_STEPS,
  operator: operatorSettings(root.settings),
});

/**
 * GET /api/admin/activity?days=N: the last N UTC days (today included) by kind, the last 48 hours by store, people's
 * page loads by source and their path through, from two queries whatever N is (the visitor-days since the first day,
 * the hours since the first hour's day). A store that cannot answer gives 200 with `available: false`.
 */
export function activityCard(request: IncomingRequest, deps: ActivityDeps): Promise<Answer> {
  return asOperator(request, deps.operator, () => readCard(request, deps));
}

async function readCard(request: IncomingRequest, deps: ActivityDeps): Promise<Answer> {
  const query = readQuery(activityQuerySchema, request);
  if (!query.ok) return errorAnswer(query.failure);
  const now = deps.clock.now();
  const days = daysEnding(utcDay(now), query.value.days);
  const firstHour = lastHours(now, HOURS_SHOWN)[0]!;
  const { value, availability } = await readActivity(deps.store, deps.logger, () =>
    Promise.all([deps.store.activityReader.visitorDaysSince(days[0]!), deps.store.activityReader.hoursSince(firstHour.slice(0, 10))]),
  );
  const shown = new Set(days);
  // A hit may be up to five minutes ahead of the clock, so a document of tomorrow can exist: it is not in the window.
  const visitorDays = value && tokenDays(value[0]).filter((visitorDay) => shown.has(visitorDay.day));
  return {
    status: 200,
    body: {
      days: query.value.days,
      from: days[0],
      to: days[days.length - 1],
      by_day: visitorDays && byDay(visitorDays, days),
      hours: value && hoursOf(value[1], now),
      sources: visitorDays && sourcesOf(visitorDays),
      path: visitorDays && funnelOf(visitorDays, deps.funnel),
      countries: visitorDays && countriesOf(visitorDays),
      devices: visitorDays && devicesOf(visitorDays),
      campaigns: visitorDays && campaignsOf(visitorDays),
      availability,
      cost: costOf(deps.store),
    },
  };
}
