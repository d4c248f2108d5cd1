import type { ImportHit, ImportedDay } from '../../shared/contract/import';
import type { Target } from './target';

/** What the endpoint answers a batch with (202). */
export interface ImportAnswer {
  accepted: number;
  /** Counted, but kept already by an earlier import of the same lines: not queued again. */
  already_kept: number;
  ignored: number;
  skipped: number;
  until: string;
  live_from: string;
  /** The site the import fills. */
  site: string;
}

/** A request the app refused for good (a wrong key, a batch it cannot read): the import stops. */
export class ImportRefused extends Error {}

/** The waits between tries of a batch the app could not take yet (503, a lost connection): about a minute in all. */
const BACKOFF_MS = [250, 500, 1_000, 2_000, 4_000, 8_000, 15_000, 30_000];

/** The body of POST /api/import. */
export type ImportBody = { until?: string; hits?: Array<Partial<ImportHit>>; days?: ImportedDay[] };

/**
 * Sends batches to POST /api/import, a few at once, each tried again after a wait when the app could not take it
 * (the same batch is the same queue messages, so a batch that landed and is sent again counts once). Sums the answers.
 */
export class Sender {
  readonly totals = { accepted: 0, alreadyKept: 0, ignored: 0, skipped: 0 };
  private readonly inFlight = new Set<Promise<void>>();
  private failure: Error | null = null;

  constructor(
    private readonly target: Target,
    private readonly options: { inFlight: number; fetch: typeof fetch; sleep: (ms: number) => Promise<void> },
  ) {}

  /** Posts one body and answers the app's answer, trying again while the app cannot take it (`once`: not at all). */
  async post(body: ImportBody, once = false): Promise<ImportAnswer> {
    const site = this.target.site === undefined ? '' : `?site=${encodeURIComponent(this.target.site)}`;
    const url = `${this.target.url.replace(/\/+$/, '')}/api/import${site}`;
    const text = JSON.stringify(body);
    for (let attempt = 0; ; attempt += 1) {
      let status: number;
      let answer: string;
      try {
        const response = await this.options.fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-ingest-key': this.target.key },
          body: text,
        });
        status = response.status;
        answer = await response.text();
      } catch (error) {
        if (once || attempt >= BACKOFF_MS.length) throw new ImportRefused(`the app at ${url} cannot be reached: ${String(error)}`);
        await this.options.sleep(BACKOFF_MS[attempt]!);
        continue;
      }
      if (status === 202) return JSON.parse(answer) as ImportAnswer;
      const retry = status === 503 || status === 429 || status === 500 || status === 502 || status === 504;
      if (!retry || once || attempt >= BACKOFF_MS.length) {
        const message = (() => {
          try {
            return (JSON.parse(answer) as { error?: { message?: string } }).error?.message ?? answer.slice(0, 200);
          } catch {
            return answer.slice(0, 200);
          }
        })();
        throw new ImportRefused(status === 401 ? `the app refused the ingest key (${message})` : `the app answered ${status}: ${message}`);
      }
      await this.options.sleep(BACKOFF_MS[attempt]!);
    }
  }

  /** Sends a batch, waiting first while as many as allowed are on their way; a refusal stops the next one. */
  async send(body: ImportBody): Promise<void> {
    this.stopIfRefused();
    while (this.inFlight.size >= this.options.inFlight) await Promise.race(this.inFlight);
    this.stopIfRefused();
    const sending = this.post(body).then(
      (answer) => {
        this.totals.accepted += answer.accepted;
        this.totals.alreadyKept += answer.already_kept;
        this.totals.ignored += answer.ignored;
        this.totals.skipped += answer.skipped;
      },
      (error: unknown) => {
        this.failure ??= error instanceof Error ? error : new ImportRefused(String(error));
      },
    );
    const tracked = sending.finally(() => this.inFlight.delete(tracked));
    this.inFlight.add(tracked);
  }

  /** Waits for every batch on its way; throws the first refusal. */
  async done(): Promise<void> {
    await Promise.all(this.inFlight);
    this.stopIfRefused();
  }

  private stopIfRefused(): void {
    if (this.failure !== null) throw this.failure;
  }
}
