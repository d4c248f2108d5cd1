import type { ConfigSource } from '../../core/config/source';
import { addDays } from '../../core/days';
import { errorLine } from '../../core/errors';
import type { Sent } from '../../core/ports/mailer';
import type { Result } from '../../core/result';
import type { ConfigEmail } from '../../core/store/config';
import type { ActivityDeps } from '../activity/report';
import type { NowDeps } from '../now';
import { alertId, alertsOf, dropReading, episodeOf, spikeReading, type AlertKind, type Reading } from './alerts';
import { sendOnce, type SendOutcome } from './claims';
import { mailOf, type Block } from './letter';
import { confirmedRecipients, type Confirmed, type MailDeps } from './recipients';
import { lastPeriod, reportBlocks, type ReportKind } from './reports';

/** What a site's mail reads: its period reports (goals as configured) and its last 30 minutes. */
export interface SiteMail {
  activity: () => Promise<ActivityDeps>;
  now: NowDeps;
}

export interface MailRunDeps extends MailDeps {
  config: ConfigSource;
  sites: (name: string) => SiteMail | undefined;
}

export interface MailRunOutcome {
  sent: number;
  failed: number;
}

/** Read once a run, and only when a mail is claimed. */
const once = <T>(make: () => Promise<T>): (() => Promise<T>) => {
  let made: Promise<T> | undefined;
  return () => (made ??= make());
};

const sentOf = async (read: Result<{ subject: string; blocks: Block[] } | null>, to: Confirmed, deps: MailDeps): Promise<Sent> => {
  if (!read.ok) return { ok: false, reason: read.failure.message };
  if (read.value === null) return { ok: false, reason: 'the store could not answer the figures' };
  return deps.mailer.send(mailOf({ to: to.address, subject: read.value.subject, blocks: read.value.blocks, unsubscribe: to.unsubscribe }));
};

/** One mail a recipient, each claimed before it is sent. */
async function mailEach(
  what: string,
  recipients: readonly Confirmed[],
  content: () => Promise<Result<{ subject: string; blocks: Block[] } | null>>,
  deps: MailDeps,
): Promise<SendOutcome[]> {
  const outcomes: SendOutcome[] = [];
  for (const to of recipients)
    outcomes.push(await sendOnce(deps.email.claims, `mail:${what}:${to.hash}`, deps.clock, async () => sentOf(await content(), to, deps)));
  return outcomes;
}

async function reports(
  site: string,
  kinds: readonly ReportKind[],
  today: string,
  to: readonly Confirmed[],
  reads: SiteMail,
  deps: MailDeps,
) {
  const outcomes: SendOutcome[] = [];
  for (const kind of kinds) {
    const spans = lastPeriod(kind, today);
    const content = once(async () => {
      const blocks = await reportBlocks(kind, spans, await reads.activity());
      const subject = `${site}: your ${kind} report, ${spans.period.from} to ${spans.period.to}`;
      return blocks.ok ? { ok: true as const, value: { subject, blocks: blocks.value } } : blocks;
    });
    outcomes.push(...(await mailEach(`${kind}:${spans.period.from}`, to, content, deps)));
  }
  return outcomes;
}

/** A drop is read once its day is over; a spike each run. The episode's mail goes once to each recipient. */
async function alert(
  site: string,
  kind: AlertKind,
  threshold: number,
  today: string,
  to: readonly Confirmed[],
  reads: SiteMail,
  deps: MailDeps,
) {
  const id = alertId(site, kind);
  const yesterday = addDays(today, -1);
  const reading = once(async (): Promise<Result<Reading | null>> =>
    kind === 'spike' ? spikeReading(site, threshold, reads.now) : dropReading(site, threshold, yesterday, await reads.activity()),
  );
  const kept = kind === 'drop' ? await deps.email.alerts.read(id) : null;
  let episode: number | null;
  if (kept !== null && kept.doc.checked === yesterday) episode = kept.doc.active ? kept.doc.episode : null;
  else {
    const read = await reading();
    // Figures that cannot be read move no episode.
    if (!read.ok || read.value === null) return [];
    episode = await episodeOf(deps.email.alerts, id, read.value.holds, deps.clock.now(), kind === 'drop' ? yesterday : undefined);
  }
  return episode === null ? [] : mailEach(`${kind}:${site}:${episode}`, to, reading, deps);
}

async function siteRun(settings: ConfigEmail, reads: SiteMail, deps: MailDeps): Promise<SendOutcome[]> {
  const to = await confirmedRecipients(settings.site, settings.recipients, deps);
  if (to.length === 0) return [];
  const today = (await reads.now.days()).dayOf(deps.clock.now());
  const outcomes = await reports(settings.site, settings.reports, today, to, reads, deps);
  for (const { kind, threshold } of alertsOf(settings))
    outcomes.push(...(await alert(settings.site, kind, threshold, today, to, reads, deps)));
  return outcomes;
}

/** The timer's run: each site's confirmations, due reports and alerts, each mail at most once. */
export async function mailRun(deps: MailRunDeps): Promise<MailRunOutcome> {
  const outcome = { sent: 0, failed: 0 };
  for (const settings of (await deps.config.current()).doc.email ?? []) {
    const reads = deps.sites(settings.site);
    if (reads === undefined) continue;
    try {
      for (const one of await siteRun(settings, reads, deps)) if (one !== 'taken') outcome[one] += 1;
    } catch (error) {
      // One site's store failing stops no other's mail; its claims are tried again next run.
      deps.logger.warn("a site's mail could not be done; the next run tries again", {
        function: 'email',
        site: settings.site,
        reason: errorLine(error),
      });
    }
  }
  return outcome;
}
