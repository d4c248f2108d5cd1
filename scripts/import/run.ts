import { basename } from 'node:path';
import { utcDay } from '../../shared/core/identity/tokens';
import type { HostingNetworks } from '../../shared/core/identity/network-table';
import { cleanPath, isAsset, isIgnoredPath } from '../../shared/core/identity/paths';
import { IMPORT_LIMITS, type ImportedDay } from '../../shared/contract/import';
import { detectFormat, formatNamed, type FormatName } from './detect';
import { Estimate } from './estimate';
import { logFormat } from './log-format';
import { PlausibleTotals, isPlausibleCsv, readPlausibleCsv, readPlausibleZip } from './plausible';
import type { LogFormat, LogRecord } from './record';
import { Sender, type ImportBody } from './send';
import { firstLines, inputOf, open, type Input, type Opened } from './source';
import type { Target } from './target';

/** Why a line read was not sent, as the summary counts them. */
export type IgnoredReason = 'method' | 'redirect' | 'asset' | 'admin' | 'other';

const IGNORED_WORDS: Record<IgnoredReason, string> = {
  asset: 'assets',
  method: 'methods other than GET and HEAD',
  redirect: 'redirects',
  admin: 'admin paths',
  other: 'entries that are not requests',
};

/** Redirects: the client's next line is the page it was sent to. A 304 is a page read again from the cache, and counts. */
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** How the command runs. */
export interface ImportOptions {
  inputs: readonly string[];
  format: 'auto' | FormatName;
  /** A format in nginx's log_format notation, for every log input. */
  logFormat?: string;
  dryRun: boolean;
  /** The last day to take; by default the app's (the day before the first day counted live). */
  until?: string;
  /** Where to send; may be null for a dry run. */
  target: Target | null;
  store?: string;
  /** Lines a batch (at most the endpoint's 1,000): a batch also ends where the UTC day does. */
  batchSize?: number;
  /** Batches on their way at once. */
  inFlight?: number;
  /** IGNORED_PATHS, for the summary (the app judges with its own). */
  ignoredPaths?: readonly string[];
  selfAgentTag?: string;
  /** The hosting networks' table, for the estimate (none: the estimate counts data centres as people). */
  networks?: HostingNetworks | null;
}

/** Where the command writes: the summary, and the progress (a line redrawn on a terminal, else a line every few seconds). */
export interface ImportIo {
  out(line: string): void;
  progress?: { tty: boolean; write(text: string): void; everyMs?: number };
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

/** What the import read, sent and will add. */
export interface ImportSummary {
  files: Array<{ name: string; format: string; chosen: 'detected' | 'given'; lines: number }>;
  lines: number;
  sent: number;
  /** The app's answers: hits it queued, hits an earlier import of the same lines had kept already, and sent hits it did not count. */
  accepted: number;
  alreadyKept: number;
  notCounted: number;
  ignored: Record<IgnoredReason, number>;
  skipped: number;
  unreadable: { count: number; first: Array<{ where: string; why: string }> };
  days: { first: string | null; last: string | null; count: number };
  estimate: { people: number; scanners: number; visits: number };
  until: string | null;
  liveFrom: string | null;
  /** The site the app fills, as it answered; null when it was not asked (a dry run). */
  site: string | null;
  plausible: { days: number; skipped: number; visitors: number; rows: number } | null;
  seconds: number;
  dryRun: boolean;
}

/** A log input, opened once to find its format and its first time, so the oldest is read first. */
interface LogInput {
  input: Input;
  format: LogFormat;
  chosen: 'detected' | 'given';
  first: Date | null;
  /** Standard input stays open: it cannot be read twice. */
  kept?: { opened: Opened; lines: AsyncIterator<string>; head: string[] };
}

const PEEK_LINES = 50;

/** The first request time among some lines, by the format's reader (null when none reads). */
function firstTime(format: LogFormat, lines: readonly string[]): Date | null {
  const reader = format.reader();
  for (const line of lines) {
    const read = reader.read(line);
    if (read.kind === 'record') return read.record.at;
  }
  return null;
}

const fmt = (n: number) => n.toLocaleString('en-US');

/** Progress, drawn on a terminal (bytes of the input, lines a second, time left) or written as a line every few seconds. */
class Progress {
  private timer: NodeJS.Timeout | null = null;
  private state = { name: '', bytes: 0, size: null as number | null, lines: 0 };
  private readonly started: number;

  constructor(
    private readonly io: ImportIo,
    private readonly totalLines: () => number,
  ) {
    this.started = (io.now ?? Date.now)();
    const sink = io.progress;
    if (!sink) return;
    this.timer = setInterval(() => sink.write(this.line(sink.tty)), sink.everyMs ?? (sink.tty ? 250 : 5_000));
    this.timer.unref();
  }

  at(name: string, bytes: number, size: number | null) {
    this.state = { name, bytes, size, lines: this.totalLines() };
  }

  private line(tty: boolean): string {
    const seconds = Math.max(0.001, ((this.io.now ?? Date.now)() - this.started) / 1000);
    const rate = this.totalLines() / seconds;
    const { name, bytes, size } = this.state;
    const share = size ? ` of ${(size / 1e6).toFixed(1)} MB (${Math.round((bytes / size) * 100)}%)` : '';
    const left = size && bytes > 0 ? ` about ${Math.max(0, Math.round(((size - bytes) / bytes) * seconds))} s left in this file` : '';
    const text = `${basename(name)}: ${(bytes / 1e6).toFixed(1)} MB${share}, ${fmt(this.totalLines())} lines, ${fmt(Math.round(rate))} lines/s,${left}`;
    return tty ? `\r\u001b[K${text}` : `${text}\n`;
  }

  stop() {
    if (this.timer) clearInterval(this.timer);
    if (this.io.progress?.tty) this.io.progress.write('\r\u001b[K');
  }
}

/** The earliest time a line may have: no web server log is older. */
const EARLIEST = Date.parse('1990-01-01T00:00:00Z');

/** Why the endpoint would refuse a line (its time, its method), or null: such a line is unreadable, not the batch's end. */
export function refusal(record: LogRecord, now: number): string | null {
  const at = record.at.getTime();
  if (at < EARLIEST) return 'its time is before 1990';
  if (at > now + 5 * 60_000) return 'its time is ahead of this machine’s clock';
  if (!/^[A-Za-z_-]{1,24}$/.test(record.method)) return 'its method is not an HTTP method';
  return null;
}

/** The log request as the endpoint takes it: within its bounds, what the format did not log left out. */
export function hitOf(record: LogRecord, store: string | undefined): NonNullable<ImportBody['hits']>[number] {
  return {
    at: record.at.toISOString(),
    address: record.address,
    ...(record.userAgent === null ? {} : { user_agent: record.userAgent.slice(0, 1024) }),
    method: record.method,
    path: record.path.slice(0, 2048),
    ...(record.status === null || !Number.isInteger(record.status) || record.status < 100 || record.status > 999
      ? {}
      : { status: record.status }),
    ...(record.referrer === null || record.referrer.length > 2048 ? {} : { referrer: record.referrer }),
    ...(record.host === null || record.host.length > 253 ? {} : { host: record.host }),
    ...(store === undefined ? {} : { store }),
  };
}

/**
 * A batch of log requests as the bodies that carry it: the batch itself when its JSON is within the endpoint's bound
 * (nearly every batch), else its lines in order in as few bodies as fit, so a run of long lines (a scanner's probes of
 * 2,000-character paths) is never refused for its size. Only a batch the endpoint would have refused whole is cut, so
 * every batch it would have taken is the same messages as before, and an import run again counts once.
 */
export function bodiesOf(
  hits: NonNullable<ImportBody['hits']>,
  until: string | null,
  most: number = IMPORT_LIMITS.maxBodyBytes,
): ImportBody[] {
  const body = (some: NonNullable<ImportBody['hits']>): ImportBody => (until ? { until, hits: some } : { hits: some });
  const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));
  if (bytes(body(hits)) <= most) return [body(hits)];
  const bodies: ImportBody[] = [];
  const empty = bytes(body([]));
  let part: NonNullable<ImportBody['hits']> = [];
  let size = empty;
  for (const hit of hits) {
    // A line, and the comma before it after the first.
    if (part.length > 0 && size + bytes(hit) + 1 > most) {
      bodies.push(body(part));
      part = [];
      size = empty;
    }
    size += bytes(hit) + (part.length > 0 ? 1 : 0);
    part.push(hit);
  }
  if (part.length > 0) bodies.push(body(part));
  return bodies;
}

/** The days of a tool's totals in batches whose JSON stays well under the endpoint's 1 MB. */
function dayBatches(days: readonly ImportedDay[]): ImportedDay[][] {
  const batches: ImportedDay[][] = [];
  let batch: ImportedDay[] = [];
  let bytes = 0;
  for (const day of days) {
    const size = JSON.stringify(day).length;
    if (batch.length > 0 && (bytes + size > 700_000 || batch.length >= 300)) {
      batches.push(batch);
      batch = [];
      bytes = 0;
    }
    batch.push(day);
    bytes += size;
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}

/**
 * `npm run import`: reads each input as a stream (gzip or not, standard input for `-`), the oldest log first, finds
 * each line's request, leaves out what is never counted (assets, admin paths, methods other than GET and HEAD,
 * redirects) and what is after the import's last day, and sends the rest to POST /api/import a batch at a time (a batch
 * ends with its UTC day, and is cut only when it would be over the endpoint's body bound), or nothing on a dry run.
 * Plausible's export is read into daily totals and sent as days. Answers the summary; a refusal by the app throws.
 */
export async function runImport(options: ImportOptions, io: ImportIo): Promise<ImportSummary> {
  const now = io.now ?? Date.now;
  const started = now();
  const batchSize = Math.min(options.batchSize ?? 500, 1_000);
  const ignoredPaths = options.ignoredPaths ?? ['/api/admin', '/admin'];
  const summary: ImportSummary = {
    files: [],
    lines: 0,
    sent: 0,
    accepted: 0,
    alreadyKept: 0,
    notCounted: 0,
    ignored: { asset: 0, method: 0, redirect: 0, admin: 0, other: 0 },
    skipped: 0,
    unreadable: { count: 0, first: [] },
    days: { first: null, last: null, count: 0 },
    estimate: { people: 0, scanners: 0, visits: 0 },
    until: options.until ?? null,
    liveFrom: null,
    site: null,
    plausible: null,
    seconds: 0,
    dryRun: options.dryRun,
  };
  const sender =
    options.target === null
      ? null
      : new Sender(options.target, {
          inFlight: options.inFlight ?? 4,
          fetch: io.fetch ?? fetch,
          sleep: io.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))),
        });

  // The inputs: Plausible's export apart, each log's format and first time.
  const given = options.logFormat === undefined ? null : logFormat(options.logFormat);
  const logs: LogInput[] = [];
  const plausible = new PlausibleTotals();
  let plausibleInputs = 0;
  for (const name of options.inputs) {
    const input = inputOf(name);
    const opened = await open(input);
    if (opened.container === 'zip' || isPlausibleCsv(basename(name)) || options.format === 'plausible') {
      plausibleInputs += 1;
      if (opened.container === 'zip') {
        const files = await readPlausibleZip(opened.raw, basename(name), plausible);
        summary.files.push({ name, format: `Plausible's export (${files} CSV files read)`, chosen: 'detected', lines: 0 });
      } else {
        opened.close();
        const read = await readPlausibleCsv(name, basename(name), plausible);
        summary.files.push({
          name,
          format: `Plausible's CSV export${read ? '' : ' (a table that is not imported)'}`,
          chosen: 'detected',
          lines: 0,
        });
      }
      continue;
    }
    const lines = opened.lines();
    const head = await firstLines(lines, PEEK_LINES);
    if (head.every((line) => line.trim() === '')) {
      // An empty file (the log logrotate has just started) holds nothing to import.
      opened.close();
      summary.files.push({ name, format: 'empty', chosen: 'detected', lines: head.length });
      continue;
    }
    const format = given ?? (options.format === 'auto' ? detectFormat(head) : formatNamed(options.format));
    if (format === null)
      throw new Error(
        `${name}: its format cannot be told from its first lines; name it with --format, or give its nginx log_format with --log-format`,
      );
    const chosen = given !== null || options.format !== 'auto' ? 'given' : 'detected';
    const log: LogInput = { input, format, chosen, first: firstTime(format, head) };
    if (name === '-') log.kept = { opened, lines, head };
    else opened.close();
    logs.push(log);
  }
  // The oldest first (standard input last), so each visitor's first day is kept before the later ones.
  logs.sort((a, b) => (a.kept ? 1 : 0) - (b.kept ? 1 : 0) || (a.first?.getTime() ?? Infinity) - (b.first?.getTime() ?? Infinity));

  // The import's window: the app's, unless --until names the last day (a dry run asks the app only when it can).
  if (sender !== null) {
    try {
      const window = await sender.post(options.until ? { until: options.until, hits: [] } : { hits: [] }, options.dryRun);
      summary.until = window.until;
      summary.liveFrom = window.live_from;
      summary.site = window.site;
    } catch (error) {
      if (!options.dryRun) throw error;
    }
  }
  const until = summary.until;
  for (const log of logs) io.out(`${log.input.name}: ${log.format.name} (${log.chosen === 'given' ? 'as asked' : 'detected'})`);

  const estimate = new Estimate({ selfAgentTag: options.selfAgentTag ?? 'headcount-self', networks: options.networks ?? null });
  const days = new Set<string>();
  const progress = new Progress(io, () => summary.lines);
  try {
    for (const log of logs) {
      const opened = log.kept?.opened ?? (await open(log.input));
      const lines = log.kept?.lines ?? opened.lines();
      const head = log.kept?.head ?? [];
      const reader = log.format.reader();
      let number = 0;
      let read = 0;
      let batch: NonNullable<ImportBody['hits']> = [];
      let batchDay: string | null = null;
      // Synchronous for each line; a batch that is full (or whose day ended) is handed back, to be sent with a wait.
      const unread = (why: string) => {
        summary.unreadable.count += 1;
        if (summary.unreadable.first.length < 10) summary.unreadable.first.push({ where: `${log.input.name}:${number}`, why });
        return null;
      };
      const each = (line: string): NonNullable<ImportBody['hits']> | null => {
        number += 1;
        read += 1;
        summary.lines += 1;
        if ((number & 1023) === 0) progress.at(log.input.name, opened.bytesRead(), log.input.size);
        const result = reader.read(line);
        if (result.kind === 'none') {
          if (result.why !== undefined) summary.ignored.other += 1;
          return null;
        }
        if (result.kind === 'unreadable') return unread(result.why);
        const record = result.record;
        // What the endpoint would refuse a whole batch for is this line's alone: unreadable, and the rest goes on.
        const problem = refusal(record, now());
        if (problem !== null) return unread(problem);
        const day = utcDay(record.at);
        if (until !== null && day > until) {
          summary.skipped += 1;
          return null;
        }
        const path = cleanPath(record.path);
        const reason: IgnoredReason | null =
          record.method !== 'GET' && record.method !== 'HEAD'
            ? 'method'
            : record.status !== null && REDIRECTS.has(record.status)
              ? 'redirect'
              : isAsset(path)
                ? 'asset'
                : isIgnoredPath(path, ignoredPaths)
                  ? 'admin'
                  : null;
        if (reason !== null) {
          summary.ignored[reason] += 1;
          return null;
        }
        estimate.add(record, day);
        days.add(day);
        summary.sent += 1;
        let full: NonNullable<ImportBody['hits']> | null = null;
        if (batch.length > 0 && (batchDay !== day || batch.length >= batchSize)) {
          full = batch;
          batch = [];
        }
        batchDay = day;
        batch.push(hitOf(record, options.store));
        return full;
      };
      const send = async (hits: NonNullable<ImportBody['hits']> | null) => {
        if (hits !== null && sender !== null && !options.dryRun) for (const body of bodiesOf(hits, until)) await sender.send(body);
      };
      for (const line of head) await send(each(line));
      for (let next = await lines.next(); !next.done; next = await lines.next()) {
        const full = each(next.value);
        if (full !== null) await send(full);
      }
      await send(batch.length > 0 ? batch : null);
      opened.close();
      summary.files.push({ name: log.input.name, format: log.format.name, chosen: log.chosen, lines: read });
    }

    if (plausibleInputs > 0) {
      const all = plausible.result();
      const taken = all.filter((day) => until === null || day.day <= until);
      summary.plausible = {
        days: taken.length,
        skipped: all.length - taken.length,
        visitors: taken.reduce((sum, day) => sum + day.visitors, 0),
        rows: plausible.rows,
      };
      summary.unreadable.count += plausible.problemCount;
      for (const problem of plausible.problems) if (summary.unreadable.first.length < 10) summary.unreadable.first.push(problem);
      if (!plausible.tables.has('visitors') && all.length === 0)
        throw new Error("Plausible's export has no imported_visitors CSV: the daily visitors are what is imported");
      for (const day of taken) days.add(day.day);
      if (sender !== null && !options.dryRun)
        for (const batch of dayBatches(taken)) await sender.send(until ? { until, days: batch } : { days: batch });
    }
    if (sender !== null && !options.dryRun) await sender.done();
  } finally {
    progress.stop();
  }

  const sorted = [...days].sort();
  summary.days = { first: sorted[0] ?? null, last: sorted[sorted.length - 1] ?? null, count: sorted.length };
  summary.estimate = estimate.result();
  if (sender !== null && !options.dryRun) {
    summary.accepted = sender.totals.accepted;
    summary.alreadyKept = sender.totals.alreadyKept;
    summary.notCounted = sender.totals.ignored;
    summary.skipped += sender.totals.skipped;
  }
  summary.seconds = (now() - started) / 1000;
  for (const line of summaryLines(summary)) io.out(line);
  return summary;
}

/** The summary as the command prints it. */
export function summaryLines(summary: ImportSummary): string[] {
  const lines: string[] = [];
  const rate = summary.seconds > 0 ? ` (${fmt(Math.round(summary.lines / summary.seconds))} lines/s)` : '';
  lines.push(
    `${summary.dryRun ? 'dry run, nothing sent: ' : ''}${fmt(summary.lines)} lines read in ${summary.seconds.toFixed(1)} s${rate}`,
  );
  for (const file of summary.files) lines.push(`  ${file.name}: ${file.format}${file.lines > 0 ? `, ${fmt(file.lines)} lines` : ''}`);
  const sentWord = summary.dryRun ? 'to send' : 'sent';
  const kept = summary.alreadyKept > 0 ? `, had kept ${fmt(summary.alreadyKept)} already (an earlier import of the same lines)` : '';
  const app = summary.dryRun ? '' : ` (the app queued ${fmt(summary.accepted)}${kept}, did not count ${fmt(summary.notCounted)})`;
  lines.push(`hits ${sentWord}: ${fmt(summary.sent)}${app}`);
  if (summary.site) lines.push(`${summary.dryRun ? 'site to fill' : 'site filled'}: ${summary.site}`);
  const ignored = Object.entries(summary.ignored).filter(([, count]) => count > 0);
  const ignoredTotal = ignored.reduce((sum, [, count]) => sum + count, 0);
  lines.push(
    `ignored: ${fmt(ignoredTotal)}${ignored.length > 0 ? ` (${ignored.map(([reason, count]) => `${fmt(count)} ${IGNORED_WORDS[reason as IgnoredReason]}`).join(', ')})` : ''}`,
  );
  const window =
    summary.until === null ? 'no last day known (a dry run that could not ask the app; --until names one)' : `after ${summary.until}`;
  const live = summary.liveFrom === null ? '' : `, the day before the first day counted live (${summary.liveFrom})`;
  lines.push(`skipped: ${fmt(summary.skipped)} ${window}${summary.until !== null && summary.liveFrom !== null ? live : ''}`);
  lines.push(`unreadable: ${fmt(summary.unreadable.count)}${summary.unreadable.count > 10 ? ' (the first ten)' : ''}`);
  for (const problem of summary.unreadable.first) lines.push(`  ${problem.where}: ${problem.why}`);
  const { first, last, count } = summary.days;
  lines.push(
    first === null ? 'days covered: none' : `days covered: ${first} to ${last} (${fmt(count)} ${count === 1 ? 'day' : 'days'} with hits)`,
  );
  if (summary.plausible !== null)
    lines.push(
      `Plausible: ${fmt(summary.plausible.days)} days of daily visitors (${fmt(summary.plausible.visitors)} visits by people) ${summary.dryRun ? 'to send' : 'sent'}, ${fmt(summary.plausible.skipped)} days skipped; people cannot be counted from daily totals`,
    );
  const { people, scanners, visits } = summary.estimate;
  const counted = (n: number, one: string, many: string) => `${fmt(n)} ${n === 1 ? one : many}`;
  lines.push(
    `the import ${summary.dryRun ? 'would add' : 'adds'} about ${counted(people, 'person', 'people')} and ${counted(visits, 'visit', 'visits')} from the logs, and leaves out ${counted(scanners, 'scanner', 'scanners')} (estimated from the lines; the app's figures after the backfill are the truth)`,
  );
  return lines;
}
