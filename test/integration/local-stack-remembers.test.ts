import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { QueueClient } from '@azure/storage-queue';
import { afterAll, describe, expect, it } from 'vitest';
import { snapshotSchema } from '../../local/cosmos/snapshot';
import { AGENTS, post } from '../support/http';
import { stackPlace, startStack, type StackPlace, type StackProcess } from '../support/stack-process';
import { settle } from '../support/store-clock';

// `npm start` as a person runs it, in a process of its own with ports and a data folder of its own: hits posted and
// counted, then Ctrl-C and a start again, then more hits, a SIGKILL of the whole process group (the stack and its
// Azurite) after the Cosmos documents were saved, and a start again. Each start reads the same people, visits and
// period report, and a recount after the kill folds what was kept before it exactly once.

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const today = () => new Date().toISOString().slice(0, 10);

const hit = (address: string, agent: string, path: string, referrer?: string) => ({
  address,
  user_agent: agent,
  path,
  referrer,
  page_load: true,
});
const FIRST = [
  hit('203.0.113.10', AGENTS.chromeWindows, '/', 'https://www.linkedin.com/feed/'),
  hit('203.0.113.11', AGENTS.firefoxLinux, '/about', 'https://github.com/someone'),
  hit('2001:db8:5::7', AGENTS.safariIphone, '/resume'),
  hit('198.51.100.40', AGENTS.chromeWindows, '/', 'https://www.google.com/'),
  hit('66.249.66.1', AGENTS.googlebot, '/'),
];
const SECOND = [
  hit('198.51.100.41', AGENTS.firefoxLinux, '/about', 'https://news.ycombinator.com/item'),
  hit('203.0.113.70', AGENTS.chromeWindows, '/resume.pdf'),
  // A person of the first batch again, the same day: no new person, no new visit.
  hit('203.0.113.10', AGENTS.chromeWindows, '/about'),
];

async function send(place: StackPlace, hits: unknown[]) {
  const answer = await post(`${place.url}/api/hits`, { hits }, { 'x-ingest-key': place.env.INGEST_KEY! });
  expect(answer.status, JSON.stringify(answer.json)).toBe(202);
}

/** Waits until the stack's keep-hits has taken every message off the queue (each is deleted once kept). */
async function kept(place: StackPlace) {
  const queue = new QueueClient(place.queueConnectionString, 'hits');
  for (let i = 0; i < 200; i++) {
    if ((await queue.getProperties()).approximateMessagesCount === 0) return;
    await wait(100);
  }
  throw new Error('the hits were not kept');
}

/**
 * The recount, run now through the host's admin route (which answers once the run is over), once the store's clock is
 * moved past the fold's settle margin. The stack's own timer is off (see `place`), so no run of it holds the lease.
 */
async function recount(place: StackPlace) {
  await settle(Number(place.env.FOLD_SETTLE_SECONDS), place.env.COSMOS_ENDPOINT);
  expect((await fetch(`${place.url}/admin/functions/recount`, { method: 'POST' })).status).toBe(202);
}

/** What a person sees: the pulse, the Admin count, the period report and today's visitors, less what differs by process. */
async function figures(place: StackPlace) {
  const get = async (path: string) => {
    const response = await fetch(`${place.url}${path}`, { headers: { 'x-operator-key': place.env.OPERATOR_KEY! } });
    expect(response.status, path).toBe(200);
    return await response.json();
  };
  const activity = await get('/api/admin/activity?days=7');
  // `cost` counts the store's operations since this process started; the hours shift when the clock passes one.
  delete activity.cost;
  activity.hours = activity.hours.filter((hour: { requests: number }) => hour.requests > 0);
  return {
    pulse: await get('/api/pulse'),
    people: await get('/api/admin/visitors/people'),
    activity,
    visitors: await get(`/api/admin/activity/visitors?day=${today()}`),
  };
}

/** The documents of a kind in the last save of the local Cosmos server. */
function savedOfKind(dataDir: string, kind: string) {
  const saved = snapshotSchema.parse(JSON.parse(readFileSync(join(dataDir, 'cosmos.json'), 'utf8')));
  return saved.databases.flatMap((db) => db.collections.flatMap((collection) => collection.documents.filter((doc) => doc.kind === kind)));
}

/** Waits until the last save of the local Cosmos server holds `count` documents of a kind (it saves every 2 s). */
async function saved(dataDir: string, kind: string, count: number) {
  for (let i = 0; i < 300; i++) {
    if (savedOfKind(dataDir, kind).length === count) return;
    await wait(100);
  }
  throw new Error(`the save never held ${count} documents of kind ${kind}`);
}

describe('npm start remembers what it kept', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'headcount-stack-'));
  let stack: StackProcess | undefined;
  afterAll(async () => {
    await stack?.kill();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('reads the same people, visits and period report after Ctrl-C, and after a kill between two saves', async () => {
    // The fold's timer off, as the Functions host reads the setting: a run of it beside the test's would hold the
    // fold lease, and the test's run would fold nothing.
    const place = await stackPlace(dataDir, { 'AzureWebJobs.recount.Disabled': 'true' });
    stack = await startStack(place, ['--fresh']);
    await send(place, FIRST);
    await kept(place);
    await recount(place);
    const before = await figures(place);
    expect(before.people).toMatchObject({ people_all_time: 4, scanners_left_out: 1, people_new_today: 4 });
    expect(before.pulse).toMatchObject({ people_all_time: 4, visits_all_time: 4 });
    expect(before.activity.by_day.at(-1)).toMatchObject({ people: 4, scanners: 1, total: 5 });
    expect(before.activity.sources).toMatchObject({ linkedin: 1, github: 1, search: 1, typed: 1 });

    // Ctrl-C: the stack saves the Cosmos documents once more and Azurite closes its files.
    await stack.interrupt();
    expect(stack.output()).toContain('stopped.');
    stack = await startStack(place);
    expect(stack.output()).toMatch(/\d+ documents loaded/);
    expect(await figures(place)).toEqual(before);
    await recount(place);
    expect(await figures(place), 'a recount after the restart counts nothing again').toEqual(before);

    // More hits, kept but not yet counted, and the periodic save (every 2 s while changed) has them: the kill comes
    // after it, whether or not Azurite's own save (every 5 s) has passed (a message it gives again is kept once).
    await send(place, SECOND);
    await kept(place);
    await saved(dataDir, 'visitor-record', 7);
    expect(savedOfKind(dataDir, 'visitor-record')).toHaveLength(7);
    const savedDocuments = snapshotSchema
      .parse(JSON.parse(readFileSync(join(dataDir, 'cosmos.json'), 'utf8')))
      .databases.flatMap((db) => db.collections.flatMap((collection) => collection.documents)).length;
    await stack.kill();

    stack = await startStack(place);
    // The last completed save is what is loaded, whole.
    expect(stack.output()).toContain(`${savedDocuments} documents loaded`);
    await recount(place);
    const after = await figures(place);
    expect(after.people).toMatchObject({ people_all_time: 6, scanners_left_out: 1, people_new_today: 6 });
    expect(after.pulse).toMatchObject({ people_all_time: 6, visits_all_time: 6 });
    expect(after.activity.by_day.at(-1)).toMatchObject({ people: 6, scanners: 1, total: 7 });
    expect(after.activity.sources).toMatchObject({ linkedin: 1, github: 1, search: 1, other: 1, typed: 3 });
    expect(after.visitors.visitors).toHaveLength(7);
    await recount(place);
    expect(await figures(place), 'a second recount after the kill changes nothing').toEqual(after);
  }, 400_000);
});
