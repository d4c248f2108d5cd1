import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outboxMails } from '../../adapters/files/outbox';
import { SLOWDOWN } from '../../shared/core/guesses';
import { fixedClock } from '../../shared/core/ports/clock';
import { memoryLogger } from '../../shared/core/ports/logger';
import { mailRun } from '../../shared/read/email/run';
import { startTestHost, type TestHost } from '../support/host';
import { AGENTS, post } from '../support/http';

// Email reports and alerts through the local host, the local Cosmos server and the outbox folder: a recipient is sent a
// link to confirm, and only then mail; a report goes once a period however often the timer runs, an alert once an
// episode; the unsubscribe link every mail carries stops the mail after it.

// A Wednesday in Paris; the week reported is the local Monday to Sunday before the Monday it is sent.
const clock = fixedClock('2026-10-21T10:00:00.000Z');
const APP_URL = 'https://stats.example';

describe('email reports and alerts', () => {
  let t: TestHost;
  const outbox = mkdtempSync(join(tmpdir(), 'outbox-'));
  const logger = memoryLogger();
  const operator = (path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) =>
    fetch(`${t.host.url}${path}`, {
      method: init.method ?? 'GET',
      headers: { 'x-operator-key': t.env.OPERATOR_KEY!, 'content-type': 'application/json', ...init.headers },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
  const hits = async (addresses: readonly string[], path = '/pricing') => {
    const sent = await post(
      `${t.host.url}/api/hits`,
      { hits: addresses.map((address) => ({ address, user_agent: AGENTS.firefoxLinux, path, page_load: true })) },
      { 'x-ingest-key': t.env.INGEST_KEY! },
    );
    expect(sent.status).toBe(202);
    await t.host.drain();
  };
  const mails = () => outboxMails(outbox);
  const to = async (address: string) => (await mails()).filter((mail) => mail.to === address);
  const linkIn = (text: string, action: string) => new RegExp(`${APP_URL}(/api/email/${action}\\?token=[A-Za-z0-9_-]{32})`).exec(text)![1]!;
  const follow = async (path: string, from = '198.51.100.7') => {
    const response = await fetch(`${t.host.url}${path}`, { headers: { 'x-forwarded-for': from } });
    return { status: response.status, text: await response.text() };
  };
  const run = () => t.host.run('email');

  beforeAll(async () => {
    t = await startTestHost({
      env: {
        ALLOWED_ORIGINS: '',
        SITES: 'blog.example=https://blog.example;zone=Europe/Paris',
        TRUSTED_PROXY_HOPS: '1',
        EMAIL_OUTBOX: outbox,
        APP_URL,
      },
      overrides: { clock, logger },
    });
    await hits(['203.0.113.1', '203.0.113.2', '203.0.113.3']);
    clock.advance(60_000);
    await t.fold();
    const read = await operator('/api/admin/config');
    const config = await read.json();
    const email = [
      {
        site: 'blog.example',
        recipients: ['owner@example.com', 'silent@example.com'],
        reports: ['weekly'],
        spike_people: 2,
        drop_percent: 50,
      },
    ];
    const put = await operator('/api/admin/config', {
      method: 'PUT',
      headers: { 'if-match': read.headers.get('etag')! },
      body: { ...config, email },
    });
    expect(put.status).toBe(200);
    expect((await put.json()).email).toEqual(email);
  });
  afterAll(() => t?.stop());

  it('sends each new recipient one link to confirm, and nothing else until it is followed', async () => {
    await run();
    await run();
    const sent = await mails();
    expect(sent.map((mail) => mail.to).sort()).toEqual(['owner@example.com', 'silent@example.com']);
    expect(sent.every((mail) => mail.subject === "Confirm headcount's mail for blog.example")).toBe(true);
    const confirm = linkIn((await to('owner@example.com'))[0]!.text, 'confirm');
    const page = await follow(confirm);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<h1>Confirmed</h1>');
    // Only the token's keyed hash is kept.
    const stored = JSON.stringify(await t.root.store.email.tokens.read(`email-token:${'0'.repeat(64)}`));
    expect(stored).toBe('null');
  });

  it('answers a wrong token as an expired one, and slows the address after the free guesses', async () => {
    const wrong = '/api/email/confirm?token=' + 'A'.repeat(32);
    const statuses: number[] = [];
    for (let i = 0; i <= SLOWDOWN.freeGuesses; i += 1) statuses.push((await follow(wrong, '198.51.100.99')).status);
    expect(statuses.slice(0, SLOWDOWN.freeGuesses)).toEqual(Array(SLOWDOWN.freeGuesses).fill(404));
    expect(statuses.at(-1)).toBe(429);
    expect((await follow('/api/email/unsubscribe?token=short', '198.51.100.98')).text).toContain(
      'This link is not valid, or it has expired.',
    );
  });

  it('writes the week’s report once when the timer fires twice, and when two runs race, to the confirmed only', async () => {
    // Monday 26 October, 09:00 in Paris: the week of 19 to 25 October is over there.
    clock.set('2026-10-26T08:00:00.000Z');
    const before = (await mails()).length;
    await run();
    await run();
    await Promise.all([mailRun(t.root.mail), mailRun(t.root.mail), run()]);
    const reports = (await mails()).slice(before);
    expect(reports.map((mail) => [mail.to, mail.subject])).toEqual([
      ['owner@example.com', 'blog.example: your weekly report, 2026-10-19 to 2026-10-25'],
    ]);
    const [report] = reports;
    const week = await (await operator('/api/admin/activity?from=2026-10-19&to=2026-10-25&site=blog.example')).json();
    expect(week.headline.people).toBe(3);
    expect(report!.text).toContain(`People (each once)  ·  ${week.headline.people}  ·  new`);
    expect(report!.text).toContain('/pricing  ·  3  ·  new');
    expect(report!.html).toContain('<td>/pricing</td>');
    expect(report!.unsubscribe).toMatch(new RegExp(`^${APP_URL}/api/email/unsubscribe\\?token=`));
    expect(report!.text).toContain(report!.unsubscribe);
  });

  it('sends a spike once an episode: once while it lasts, once more when it comes back', async () => {
    const spikes = async () => (await to('owner@example.com')).filter((mail) => mail.subject.startsWith('Traffic spike'));
    await run();
    expect(await spikes()).toHaveLength(0);
    await hits(['203.0.113.11', '203.0.113.12']);
    for (let minute = 0; minute < 3; minute += 1) {
      await run();
      clock.advance(60_000);
    }
    expect((await spikes()).map((mail) => mail.subject)).toEqual(['Traffic spike on blog.example: 2 people in the last 30 minutes']);
    // Half an hour later the spike is over; it comes back and is sent again, once.
    clock.advance(31 * 60_000);
    await run();
    expect(await spikes()).toHaveLength(1);
    await hits(['203.0.113.21', '203.0.113.22', '203.0.113.23']);
    await run();
    clock.advance(60_000);
    await run();
    expect((await spikes()).map((mail) => mail.subject)).toEqual([
      'Traffic spike on blog.example: 2 people in the last 30 minutes',
      'Traffic spike on blog.example: 3 people in the last 30 minutes',
    ]);
    expect(await to('silent@example.com')).toHaveLength(1);
  });

  it("sends a drop once its day is over: a day's people below the share of the same weekday a week before", async () => {
    const drops = async () => (await to('owner@example.com')).filter((mail) => mail.subject.startsWith('Traffic drop'));
    expect(await drops()).toHaveLength(0);
    // Thursday: Wednesday the 28th had no one, against the 3 people of Wednesday the 21st.
    clock.set('2026-10-29T08:00:00.000Z');
    await run();
    await run();
    expect((await drops()).map((mail) => mail.subject)).toEqual(['Traffic drop on blog.example: 0 people on 2026-10-28, 3 a week before']);
    // Friday: Thursday the 29th against Thursday the 22nd, no one either day, so the episode is over.
    clock.set('2026-10-30T08:00:00.000Z');
    await run();
    expect(await drops()).toHaveLength(1);
    expect(await t.root.store.email.alerts.read('alert:drop:blog.example')).toMatchObject({ doc: { active: false, episode: 1 } });
  });

  it('stops all mail after the unsubscribe link is followed', async () => {
    const last = (await to('owner@example.com')).at(-1)!;
    const page = await follow(linkIn(last.text, 'unsubscribe'));
    expect(page.status).toBe(200);
    expect(page.text).toContain('<h1>Unsubscribed</h1>');
    const before = (await mails()).length;
    clock.advance(31 * 60_000);
    await run();
    await hits(['203.0.113.31', '203.0.113.32']);
    await run();
    // A week later, its report is due; it goes to no one.
    clock.advance(7 * 86_400_000);
    await run();
    expect((await mails()).length).toBe(before);
    // The local host's page lists them and shows each as sent.
    const listed = await (await fetch(`${t.host.url}/admin/outbox`)).text();
    expect(listed).toContain('blog.example: your weekly report, 2026-10-19 to 2026-10-25</a> to owner@example.com');
    const shown = await fetch(`${t.host.url}/admin/outbox/${(await to('owner@example.com'))[1]!.name}`);
    expect(shown.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await shown.text()).toContain('<td>/pricing</td>');
    // The outbox is two files a mail.
    expect(readdirSync(outbox).length).toBe(2 * before);
    expect(readFileSync(join(outbox, readdirSync(outbox)[0]!), 'utf8').length).toBeGreaterThan(0);
  });
});
