import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { strToU8, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { containerOf } from '../support/cosmos';
import { startTestHost, type TestHost } from '../support/host';

/**
 * Each format the command reads, from a sample as its server writes it (test/fixtures/logs/), imported by the command
 * itself (`npm run import`, a process of its own) through the local host: the unreadable lines are reported with
 * file:line, and the rest is counted by the app as each sample's visitors say.
 */
const run = promisify(execFile);
const root = join(__dirname, '..', '..');
const fixture = (name: string) => join(root, 'test', 'fixtures', 'logs', name);

/** Each sample's day, and who is in it: people (by address and browser), scanners and crawlers, and the unreadable lines. */
const SAMPLES = [
  { file: 'nginx-combined.log', day: '2026-09-01', visits: 3, people: 3, scanners: 2, unreadable: [9, 12] },
  { file: 'nginx-vhost.log', day: '2026-09-02', visits: 2, people: 2, scanners: 2, unreadable: [8] },
  { file: 'apache-common.log', day: '2026-09-03', visits: 2, people: 2, scanners: 1, unreadable: [9] },
  { file: 'apache-vhost-combined.log.gz', day: '2026-09-04', visits: 3, people: 3, scanners: 1, unreadable: [8] },
  { file: 'caddy.log', day: '2026-09-05', visits: 2, people: 2, scanners: 1, unreadable: [6, 7] },
  { file: 'iis-w3c.log', day: '2026-09-06', visits: 2, people: 2, scanners: 1, unreadable: [14] },
  { file: 'appservice-w3c.log', day: '2026-09-07', visits: 2, people: 2, scanners: 0, unreadable: [8] },
] as const;
const CUSTOM = { file: 'custom.log', day: '2026-09-08', visits: 2, people: 2, scanners: 0, unreadable: [4] } as const;

const PLAUSIBLE_DAYS = { '2026-03-01': 12, '2026-03-02': 7, '2026-03-03': 20 };

describe('every format, imported by npm run import through the local host', () => {
  let t: TestHost;
  let dir: string;
  let printed = '';

  beforeAll(async () => {
    t = await startTestHost();
    await containerOf(t.env);
    dir = mkdtempSync(join(tmpdir(), 'headcount-formats-'));
    // Plausible's export, as its Imports & exports page gives it: a zip of CSV files.
    const zip = join(dir, 'plausible-export.zip');
    writeFileSync(
      zip,
      zipSync({
        'imported_visitors_20260301_20260303.csv': strToU8(
          `date,visitors,pageviews,bounces,visits,visit_duration\n${Object.entries(PLAUSIBLE_DAYS)
            .map(([day, visitors]) => `${day},${visitors},${visitors * 2},1,${visitors + 1},100`)
            .join('\n')}\n2026-03-04,oops,1,1,1,1\n`,
        ),
        'imported_pages_20260301_20260303.csv': strToU8('date,hostname,page,visits,visitors,pageviews\n2026-03-01,example.com,/,5,5,9\n'),
      }),
    );
    const args = ['--import', 'tsx', join(root, 'scripts', 'import.ts'), '--url', t.host.url, '--key', t.env.INGEST_KEY!];
    const standard = await run(process.execPath, [...args, zip, ...SAMPLES.map((sample) => fixture(sample.file))], {
      cwd: root,
      timeout: 120_000,
    });
    const custom = await run(
      process.execPath,
      [...args, '--log-format', readFileSync(fixture('custom.log-format'), 'utf8').trim(), fixture(CUSTOM.file)],
      { cwd: root, timeout: 120_000 },
    );
    printed = `${standard.stdout}\n${custom.stdout}`;
    await t.host.drain();
    for (let runs = 0; runs < 10; runs += 1) {
      await t.fold();
      if ((await t.root.store.foldState.read())?.doc.behind === null) break;
    }
  }, 240_000);
  afterAll(async () => {
    await t?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('says which format it chose for each file', () => {
    for (const [file, format] of [
      ['nginx-combined.log', 'combined (nginx, Apache) (detected)'],
      ['nginx-vhost.log', 'combined with the virtual host first (detected)'],
      ['apache-common.log', 'common (nginx, Apache) (detected)'],
      ['apache-vhost-combined.log.gz', 'combined with the virtual host first (detected)'],
      ['caddy.log', "Caddy's JSON access log (detected)"],
      ['iis-w3c.log', 'W3C extended (IIS, Azure App Service) (detected)'],
      ['appservice-w3c.log', 'W3C extended (IIS, Azure App Service) (detected)'],
      ['custom.log', `--log-format '${readFileSync(fixture('custom.log-format'), 'utf8').trim()}' (as asked)`],
    ] as const)
      expect(printed).toContain(`${fixture(file)}: ${format}`);
    expect(printed).toContain("plausible-export.zip: Plausible's export (2 CSV files read)");
  });

  it('reports each unreadable line with file:line and why', () => {
    for (const sample of [...SAMPLES, CUSTOM])
      for (const line of sample.unreadable) expect(printed).toContain(`  ${fixture(sample.file)}:${line}: `);
    expect(printed).toContain('plausible-export.zip/imported_visitors_20260301_20260303.csv:5: its count cannot be read');
  });

  it('imports the rest: each sample’s visits, and its people and scanners in the count', async () => {
    const visits = (await t.root.store.visits.read())!.doc;
    const people = (await t.root.store.visitorsSummary.read())!.doc;
    const logs = [...SAMPLES, CUSTOM];
    expect(visits.by_day).toEqual({ ...PLAUSIBLE_DAYS, ...Object.fromEntries(logs.map((sample) => [sample.day, sample.visits])) });
    expect(people.people_new_by_day).toEqual(
      Object.fromEntries(logs.filter((sample) => sample.people > 0).map((sample) => [sample.day, sample.people])),
    );
    expect(people).toMatchObject({
      people_all_time: logs.reduce((sum, sample) => sum + sample.people, 0),
      scanners_left_out: logs.reduce((sum, sample) => sum + sample.scanners, 0),
      // The export's daily totals make visits, never people: the people are counted from the first log day.
      counted_from: '2026-09-01',
    });
    expect(visits.from).toBe('2026-03-01');
    const imported = (await t.root.store.rollups.read('2026-03-01'))!.doc.imported;
    expect(imported).toMatchObject({ source: 'plausible', visitors: 12, pages: { '/': 9 } });
  });
});
