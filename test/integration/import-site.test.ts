import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runImport } from '../../scripts/import/run';
import { containerOf } from '../support/cosmos';
import { startTestHost, type TestHost } from '../support/host';

// `npm run import` says which site it filled, as the app answers it: the one `--site` named, or the first declared.

const SITES = 'blog.example=https://blog.example|docs.example=https://docs.example';

describe('npm run import names the site it fills', () => {
  let t: TestHost;
  let dir: string;
  let log: string;

  beforeAll(async () => {
    t = await startTestHost({ env: { ALLOWED_ORIGINS: '', SITES } });
    await containerOf(t.env);
    dir = mkdtempSync(join(tmpdir(), 'headcount-import-site-'));
    log = join(dir, 'access.log');
    writeFileSync(
      log,
      '203.0.113.9 - - [01/Sep/2026:10:00:00 +0000] "GET / HTTP/1.1" 200 512 "-" "Mozilla/5.0 (X11; Linux x86_64; rv:131.0) Gecko/20100101 Firefox/131.0"\n',
    );
  });
  afterAll(async () => {
    await t?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const imported = async (site?: string) => {
    const lines: string[] = [];
    const target = { url: t.host.url, key: t.env.INGEST_KEY!, from: 'the test', ...(site === undefined ? {} : { site }) };
    const summary = await runImport({ inputs: [log], format: 'auto', dryRun: false, target }, { out: (line) => lines.push(line) });
    return { summary, lines };
  };

  it('says the site --site named, or the first declared without it', async () => {
    const docs = await imported('docs.example');
    expect(docs.summary.site).toBe('docs.example');
    expect(docs.lines).toContain('site filled: docs.example');
    const first = await imported();
    expect(first.summary.site).toBe('blog.example');
    expect(first.lines).toContain('site filled: blog.example');
  });
});
