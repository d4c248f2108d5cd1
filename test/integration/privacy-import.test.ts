import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { azureHitQueue, queueClient } from '../../adapters/azure-hit-queue';
import { runImport } from '../../scripts/import/run';
import { addDays } from '../../shared/core/days';
import { utcDay } from '../../shared/core/identity/tokens';
import { importQueueName } from '../../shared/ingest/import/queue-name';
import { memoryLogger } from '../../shared/core/ports/logger';
import type { HitQueue } from '../../shared/core/ports/queue';
import { containerOf, storedDocuments } from '../support/cosmos';
import { testEnv } from '../support/env';
import { startTestHost, type TestHost } from '../support/host';
import { timeLocal } from '../support/log-history';
import { PATHS, address, agent, expectNoQuery, expectNothingNaming, queryParameters, queryText } from '../support/privacy';

/**
 * The privacy line through an import: a log in a custom format that holds, beside the addresses and agents, what only
 * a log holds (user names, session cookies, referrers with their own queries) and query strings with values of every
 * kind, imported by the command through the local host, kept by keep-imports and folded. Then every message queued,
 * every document kept, every answer, every log line of the app and every line the command printed is searched: none
 * holds an address in any spelling, an agent, a query value that is not a campaign tag, or any of the log-only fields.
 */
const FORMAT =
  '$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent "$http_referer" "$http_user_agent" "$http_cookie"';
const TODAY = utcDay(new Date());
const marker = fc.stringMatching(/^[a-z]{14}$/);

/** A value as nginx writes it inside quotes: a quote or a backslash as \xHH. */
const nginxQuoted = (text: string) => text.replace(/[\\"]/g, (char) => `\\x${char.charCodeAt(0).toString(16).toUpperCase()}`);

describe('privacy through an import: nothing of a log line but what /api/hits keeps is queued, kept, answered or logged', () => {
  let t: TestHost;
  let dir: string;
  const logger = memoryLogger();
  const queued: string[] = [];
  const printed: string[] = [];
  const answers: string[] = [];
  const sample = fc.sample(
    fc.record({
      address,
      agent,
      path: fc.constantFrom(...PATHS.map((path) => path.split(/[?#]/)[0]!)),
      query: queryParameters,
      user: marker,
      cookie: marker,
      referrerMarker: marker,
      daysBack: fc.integer({ min: 1, max: 20 }),
      second: fc.integer({ min: 0, max: 86_399 }),
    }),
    { numRuns: 150, seed: 21 },
  );
  const logOnly = sample.flatMap((line) => [line.user, line.cookie, line.referrerMarker]);

  beforeAll(async () => {
    const env = testEnv();
    // Every message the endpoint queues, as it is sent to the imports queue.
    const real = azureHitQueue(queueClient({ connectionString: env.AzureWebJobsStorage! }, importQueueName(env.HITS_QUEUE!)));
    const importQueue: HitQueue = {
      sendAll: async (messages) => {
        queued.push(...messages.map((text) => Buffer.from(text, 'base64').toString('utf8')));
        return real.sendAll(messages);
      },
    };
    t = await startTestHost({ env, overrides: { logger, importQueue } });
    await containerOf(t.env);
    dir = mkdtempSync(join(tmpdir(), 'headcount-privacy-import-'));
    const lines = sample.map((line) => {
      const at = new Date(Date.parse(`${addDays(TODAY, -line.daysBack)}T00:00:00Z`) + line.second * 1000);
      const request = `GET ${line.path}?${queryText(line.query)} HTTP/1.1`;
      const referrer = `https://www.linkedin.com/feed/?trk=${line.referrerMarker}`;
      return `${line.address} - ${line.user} [${timeLocal(at, 60)}] "${request}" 200 512 "${referrer}" "${nginxQuoted(line.agent)}" "session=${line.cookie}; theme=dark"`;
    });
    const file = join(dir, 'access.log.1.gz');
    writeFileSync(file, gzipSync(`${lines.join('\n')}\n`));
    const summary = await runImport(
      {
        inputs: [file],
        format: 'auto',
        logFormat: FORMAT,
        dryRun: false,
        target: { url: t.host.url, key: t.env.INGEST_KEY!, from: 'the test' },
      },
      { out: (line) => printed.push(line), progress: { tty: false, write: (text) => printed.push(text), everyMs: 1 } },
    );
    expect(summary.unreadable.count).toBe(0);
    expect(summary.sent).toBeGreaterThan(100);
    await t.host.drain();
    for (let runs = 0; runs < 10; runs += 1) {
      await t.fold();
      if ((await t.root.store.foldState.read())?.doc.behind === null) break;
    }
    const admin = { authorization: `Bearer ${t.env.OPERATOR_KEY!}` };
    for (const path of [
      '/api/pulse',
      '/api/admin/visitors/people',
      '/api/admin/activity?days=30',
      `/api/admin/activity/visitors?day=${addDays(TODAY, -3)}`,
      '/api/admin/now',
      `/api/admin/export?from=${addDays(TODAY, -21)}&to=${TODAY}&format=csv`,
      `/api/admin/export?from=${addDays(TODAY, -21)}&to=${TODAY}`,
    ]) {
      const response = await fetch(`${t.host.url}${path}`, { headers: admin });
      expect(response.status, path).toBe(200);
      answers.push(await response.text());
    }
  }, 240_000);
  afterAll(async () => {
    await t?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('kept and counted the import', async () => {
    expect(queued.length).toBeGreaterThan(0);
    const people = (await t.root.store.visitorsSummary.read())?.doc;
    expect(people?.people_all_time).toBeGreaterThan(10);
  });

  it('holds no address, agent, query value, user name, cookie or referrer query anywhere', async () => {
    const stored = await storedDocuments(await containerOf(t.env));
    expect(stored.packed).toBe(stored.facts);
    const documents = stored.documents.map((doc) => JSON.stringify(doc)).join('\n');
    const left = [
      ...(await t.poison.peekMessages({ numberOfMessages: 32 })).peekedMessageItems,
      ...(
        await queueClient({ connectionString: t.env.AzureWebJobsStorage! }, `${importQueueName(t.env.HITS_QUEUE!)}-poison`).peekMessages({
          numberOfMessages: 32,
        })
      ).peekedMessageItems,
    ];
    expect(left).toEqual([]);
    const addresses = sample.map((line) => line.address);
    const agents = sample.map((line) => line.agent);
    const parameters = sample.flatMap((line) => line.query);
    for (const [where, text] of [
      ['a queued message', queued.join('\n')],
      ['a stored document', documents],
      ['an answer', answers.join('\n')],
      ['the log', logger.lines.join('\n')],
      ['what the command printed', printed.join('\n')],
    ] as const) {
      expectNothingNaming(text, addresses, agents, where);
      expectNoQuery(text, parameters, where);
      for (const value of logOnly) expect(text, `${where} holds a log-only field (${value})`).not.toContain(value);
      expect(text, `${where} holds a cookie`).not.toMatch(/session=|theme=dark/);
    }
    // The referrers were read: their hosts are the sources, and nothing of their queries.
    expect(documents).toContain('www.linkedin.com');
  });
});
