import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../shared/core/ports/clock';
import { containerOf } from '../support/cosmos';
import { GOLDEN_ENV, START } from '../support/golden-fixture';
import { normalised, readAll, recorded, runGolden } from '../support/golden-run';
import { startTestHost, type TestHost } from '../support/host';
import { testSecret } from '../support/day-secrets';

// The store a deployment of one site kept before sites existed (test/golden/store.json: every document the golden
// fixture's run left, recorded on that code), loaded into today's code: every answer it reads is the one that code gave
// (test/golden/store-answers.json: its tokens were made with HASH_KEY, and its visitor-days kept networks, before each day
// had a secret of its own).
// RECORD_GOLDEN_STORE=1 records the file again from a run of the fixture; it is only for a code that has not changed
// how documents are kept.

const STORE_FILE = join(__dirname, '..', 'golden', 'store.json');
const GOLDEN_FILE = join(__dirname, '..', 'golden', 'store-answers.json');
const SYSTEM_FIELDS = ['_rid', '_self', '_etag', '_attachments', '_ts'];

interface GoldenStore {
  read_at: string;
  documents: Array<Record<string, unknown>>;
}

const withoutSystemFields = (document: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(document).filter(([key]) => !SYSTEM_FIELDS.includes(key)));

async function record(): Promise<void> {
  const clock = fixedClock(START);
  const t = await startTestHost({ env: GOLDEN_ENV, overrides: { clock, newSecret: testSecret } });
  try {
    const container = await containerOf(t.env);
    await runGolden(t, clock);
    const { resources } = await container.items.readAll<Record<string, unknown>>().fetchAll();
    const where = (document: Record<string, unknown>) => `${String(document.pk)}|${String(document.id)}`;
    const documents = resources.map(withoutSystemFields).sort((a, b) => where(a).localeCompare(where(b)));
    const store: GoldenStore = { read_at: new Date(clock.now()).toISOString(), documents };
    writeFileSync(STORE_FILE, `${JSON.stringify(store, null, 1)}\n`);
  } finally {
    await t.stop();
  }
}

/** The golden store loaded into a new database, read by a host with these settings, each read with `query`. */
async function loaded(env: Record<string, string | undefined>, query: string) {
  const store = JSON.parse(readFileSync(STORE_FILE, 'utf8')) as GoldenStore;
  const clock = fixedClock(store.read_at);
  const t = await startTestHost({ env: { ...GOLDEN_ENV, ...env }, overrides: { clock } });
  const container = await containerOf(t.env);
  for (const document of store.documents) await container.items.create(document);
  return { t, store, answers: normalised(await readAll(t, query), t.env.COSMOS_DATABASE!) as any };
}

const golden = () => {
  const { ingest: _ingest, ...answers } = JSON.parse(readFileSync(GOLDEN_FILE, 'utf8'));
  return answers;
};

describe('a store kept before sites, read by this code: every answer is the golden one', () => {
  let t: TestHost;
  let store: GoldenStore;
  let answers: any;

  beforeAll(async () => {
    if (process.env.RECORD_GOLDEN_STORE === '1') await record();
    ({ t, store, answers } = await loaded({}, ''));
  });
  afterAll(() => t?.stop());

  it('holds the documents of every kind the run keeps', () => {
    const kinds = new Set(store.documents.map((document) => document.kind));
    expect(kinds.size).toBeGreaterThan(5);
    expect(store.documents.some((document) => document.pk === 'visitors' && document.id === 'visitors-summary')).toBe(true);
  });

  it('answers every figure the golden file recorded', () => {
    expect(recorded(answers, golden())).toEqual(golden());
  });
});

describe('the same store once SITES declares its site first and two more: that site answers every golden figure', () => {
  let t: TestHost;
  let answers: any;
  let all: any;

  beforeAll(async () => {
    const env = {
      ALLOWED_ORIGINS: '',
      SITES: 'site.example=https://site.example|docs.example.org=https://docs.example.org|shop.example.net=',
    };
    ({ t, answers } = await loaded(env, 'site=site.example'));
    all = await (await fetch(`${t.host.url}/api/pulse?site=*`)).json();
  });
  afterAll(() => t?.stop());

  it('answers every figure the golden file recorded, for site=site.example', () => {
    expect(recorded(answers, golden())).toEqual(golden());
  });

  it("counts all sites from the first site's first day: its history before they were declared is theirs", () => {
    expect(all.site).toBe('*');
    expect(all.people_all_time).toBe(golden().pulse.people_all_time);
    expect(all.counted_from).toBe(golden().pulse.counted_from);
  });
});
