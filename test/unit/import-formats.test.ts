import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { importHitSchema } from '../../shared/contract/import';
import { caddyFormat } from '../../scripts/import/caddy';
import { clfFormat } from '../../scripts/import/clf';
import { detectFormat } from '../../scripts/import/detect';
import { logFormat } from '../../scripts/import/log-format';
import type { LineRead, LogFormat, LogRecord } from '../../scripts/import/record';
import { clfTime, unescaped } from '../../scripts/import/record';
import { hitOf, refusal, runImport } from '../../scripts/import/run';
import { firstLines, inputOf, open } from '../../scripts/import/source';
import { w3cFormat } from '../../scripts/import/w3c';

const FIXTURES = join(__dirname, '..', 'fixtures', 'logs');
const fixture = (name: string) => join(FIXTURES, name);
const CUSTOM = readFileSync(fixture('custom.log-format'), 'utf8').trim();

/** Every line of a file (gzipped or not) read by a format, in order. */
async function readAll(name: string, format: LogFormat): Promise<LineRead[]> {
  const opened = await open(inputOf(fixture(name)));
  const reader = format.reader();
  const reads: LineRead[] = [];
  for await (const line of { [Symbol.asyncIterator]: () => opened.lines() }) reads.push(reader.read(line));
  opened.close();
  return reads;
}

const records = (reads: LineRead[]): LogRecord[] => reads.flatMap((read) => (read.kind === 'record' ? [read.record] : []));
const problems = (reads: LineRead[]) => reads.flatMap((read, index) => (read.kind === 'unreadable' ? [`${index + 1}: ${read.why}`] : []));
const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/128.0.0.0 Safari/537.36';

describe('each format, read from a sample as its server writes it', () => {
  it('nginx combined: the request, the status, the referrer and the agent; a TLS handshake and a cut line are unreadable', async () => {
    const reads = await readAll('nginx-combined.log', clfFormat('combined'));
    expect(records(reads)[2]).toEqual({
      at: new Date('2026-09-01T08:15:40.000Z'),
      address: '73.15.12.34',
      userAgent: CHROME,
      method: 'GET',
      path: '/about?utm_source=newsletter&sessionid=8f3a1c',
      status: 200,
      referrer: 'https://example.com/',
      host: null,
    });
    expect(records(reads).map((record) => record.address)).toContain('2a01:cb00:1::17');
    expect(records(reads).find((record) => record.address === '66.249.66.1')?.referrer).toBeNull();
    expect(problems(reads)).toEqual(['9: its request line cannot be read', '12: does not read as combined (nginx, Apache)']);
  });

  it('combined with the virtual host first (nginx `$host …`, Apache vhost_combined `%v:%p …`), the gzipped file as well', async () => {
    const nginx = await readAll('nginx-vhost.log', clfFormat('vhost_combined'));
    expect(records(nginx)[0]).toMatchObject({ host: 'example.com', address: '86.128.7.9', at: new Date('2026-09-02T06:01:00.000Z') });
    expect(records(nginx)[3]).toMatchObject({ method: 'GET', status: 304 });
    expect(problems(nginx)).toEqual(['8: its address is not an IPv4 or IPv6 address']);
    const apache = await readAll('apache-vhost-combined.log.gz', clfFormat('vhost_combined'));
    expect(records(apache)[0]).toMatchObject({ host: 'www.example.com', address: '24.4.55.6', at: new Date('2026-09-04T10:59:59.000Z') });
    expect(records(apache)[3]).toMatchObject({ address: '2607:fb90:1::44', path: '/?ref=mastodon', referrer: null });
    expect(records(apache)[6]).toMatchObject({ status: 206, path: '/resume.pdf' });
    expect(problems(apache)).toEqual(['8: does not read as combined with the virtual host first']);
  });

  it('Apache common: no referrer and no agent (null: not logged), the remote user read past', async () => {
    const reads = await readAll('apache-common.log', clfFormat('common'));
    expect(records(reads)[0]).toEqual({
      at: new Date('2026-09-03T08:11:12.000Z'),
      address: '88.64.3.1',
      userAgent: null,
      method: 'GET',
      path: '/',
      status: 200,
      referrer: null,
      host: null,
    });
    expect(records(reads)[3]).toMatchObject({ path: '/admin/', status: 401 });
    expect(problems(reads)).toEqual(['9: its time cannot be read']);
  });

  it("Caddy's JSON: client_ip over remote_ip, the headers' first values; another logger's entry is no request", async () => {
    const reads = await readAll('caddy.log', caddyFormat);
    expect(records(reads)[0]).toEqual({
      at: new Date(1788595200123),
      address: '81.128.4.4',
      userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:130.0) Gecko/20100101 Firefox/130.0',
      method: 'GET',
      path: '/blog/hello?utm_source=mastodon&utm_medium=social&token=s3cr3t',
      status: 200,
      referrer: 'https://mastodon.social/',
      host: 'example.com',
    });
    expect(records(reads)[2]?.address).toBe('2003:e0:1::5');
    expect(reads[4]).toEqual({ kind: 'none', why: 'not a request' });
    expect(problems(reads)).toEqual(['6: its time (ts) cannot be read', '7: is not JSON']);
  });

  it('IIS W3C: the #Fields line names the columns, and a new one mid-file changes them; + is a space in the agent', async () => {
    const reads = await readAll('iis-w3c.log', w3cFormat);
    expect(records(reads)[0]).toEqual({
      at: new Date('2026-09-06T00:00:04.000Z'),
      address: '90.0.77.1',
      userAgent: CHROME,
      method: 'GET',
      path: '/',
      status: 200,
      referrer: 'https://www.bing.com/',
      host: null,
    });
    expect(records(reads)[2]?.path).toBe('/Products/Index?id=42&email=jane%40example.com');
    expect(records(reads)[4]).toMatchObject({
      address: '20.112.52.29',
      path: '/wp-admin/',
      status: 404,
      userAgent: 'Mozilla/5.0 (compatible; MSIE 9.0; Windows NT 6.1)',
    });
    expect(problems(reads)).toEqual(['14: has 6 fields where #Fields names 7']);
  });

  it('Azure App Service W3C: cs-host, cookies read past', async () => {
    const reads = await readAll('appservice-w3c.log', w3cFormat);
    expect(records(reads)[0]).toMatchObject({
      at: new Date('2026-09-07T08:01:12.000Z'),
      address: '86.128.99.1',
      path: '/?utm_source=newsletter&sid=8f3a1c9e',
      host: 'mysite.azurewebsites.net',
      referrer: 'https://mysite.azurewebsites.net/',
    });
    expect(JSON.stringify(records(reads))).not.toContain('ARRAffinity');
    expect(problems(reads)).toEqual(['8: has 12 fields where #Fields names 19']);
  });

  it("a custom format in nginx's log_format notation, with a user and cookies that are read past", async () => {
    const reads = await readAll('custom.log', logFormat(CUSTOM));
    expect(records(reads)[0]).toEqual({
      at: new Date('2026-09-08T09:00:00.000Z'),
      address: '2a02:8108:1::77',
      userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:130.0) Gecko/20100101 Firefox/130.0',
      method: 'GET',
      path: '/pricing?plan=pro&coupon=SPRING',
      status: 200,
      referrer: 'https://www.google.com/search?q=headcount',
      host: 'example.org',
    });
    expect(JSON.stringify(records(reads))).not.toMatch(/alice|session|9f8e7d6c5b/);
    expect(problems(reads)).toEqual(['4: does not read as the --log-format']);
  });

  it('refuses a log_format that logs no address, time or request', () => {
    expect(() => logFormat('$remote_user [$time_local] "$request"')).toThrow(/no \$remote_addr/);
    expect(() => logFormat('$remote_addr "$request"')).toThrow(/no \$time_local/);
    expect(() => logFormat('$remote_addr [$time_local] $status')).toThrow(/no \$request/);
    const split = logFormat('$remote_addr $msec $request_method $uri?$args $status');
    expect(split.reader().read('203.0.113.7 1788595200.250 GET /a?b=1 200')).toMatchObject({
      kind: 'record',
      record: { at: new Date(1788595200250), method: 'GET', path: '/a?b=1', status: 200 },
    });
  });
});

describe('--format auto', () => {
  it.each([
    ['nginx-combined.log', 'combined (nginx, Apache)'],
    ['nginx-vhost.log', 'combined with the virtual host first'],
    ['apache-common.log', 'common (nginx, Apache)'],
    ['apache-vhost-combined.log.gz', 'combined with the virtual host first'],
    ['caddy.log', "Caddy's JSON access log"],
    ['iis-w3c.log', 'W3C extended (IIS, Azure App Service)'],
    ['appservice-w3c.log', 'W3C extended (IIS, Azure App Service)'],
  ])('tells %s from its first lines: %s', async (name, format) => {
    const opened = await open(inputOf(fixture(name)));
    const head = await firstLines(opened.lines(), 50);
    opened.close();
    expect(detectFormat(head)?.name).toBe(format);
  });

  it('says which it chose, and reports every unreadable line with file:line and why, importing the rest', async () => {
    const out: string[] = [];
    const summary = await runImport(
      {
        inputs: ['nginx-combined.log', 'caddy.log', 'iis-w3c.log'].map(fixture),
        format: 'auto',
        dryRun: true,
        target: null,
        until: '2026-12-31',
      },
      { out: (line) => out.push(line) },
    );
    expect(out.slice(0, 3)).toEqual([
      `${fixture('nginx-combined.log')}: combined (nginx, Apache) (detected)`,
      `${fixture('caddy.log')}: Caddy's JSON access log (detected)`,
      `${fixture('iis-w3c.log')}: W3C extended (IIS, Azure App Service) (detected)`,
    ]);
    expect(summary.unreadable).toEqual({
      count: 5,
      first: [
        { where: `${fixture('nginx-combined.log')}:9`, why: 'its request line cannot be read' },
        { where: `${fixture('nginx-combined.log')}:12`, why: 'does not read as combined (nginx, Apache)' },
        { where: `${fixture('caddy.log')}:6`, why: 'its time (ts) cannot be read' },
        { where: `${fixture('caddy.log')}:7`, why: 'is not JSON' },
        { where: `${fixture('iis-w3c.log')}:14`, why: 'has 6 fields where #Fields names 7' },
      ],
    });
    expect(summary).toMatchObject({ lines: 33, sent: 13, skipped: 0, ignored: { asset: 4, method: 1, redirect: 1, admin: 0, other: 1 } });
    expect(out.join('\n')).toContain('unreadable: 5');
    // The summary never prints a line it read.
    expect(out.join('\n')).not.toMatch(/73\.15\.12\.34|Mozilla/);
  });

  it('counts the lines after the last day as skipped', async () => {
    const summary = await runImport(
      { inputs: [fixture('nginx-combined.log')], format: 'auto', dryRun: true, target: null, until: '2026-08-31' },
      { out: () => undefined },
    );
    expect(summary).toMatchObject({ sent: 0, skipped: 10 });
  });
});

describe('the readers', () => {
  it('read the common log time in any zone, and refuse one that is not a time', () => {
    expect(clfTime('10/Oct/2000:13:55:36 -0700')).toEqual(new Date('2000-10-10T20:55:36.000Z'));
    expect(clfTime('01/Jan/2026:00:30:00 +0530')).toEqual(new Date('2025-12-31T19:00:00.000Z'));
    expect(clfTime('31/Foo/2026:00:00:00 +0000')).toBeNull();
    expect(clfTime('10/Oct/2000:25:55:36 -0700')).toBeNull();
  });

  it('read nginx and Apache escapes back, as UTF-8', () => {
    expect(unescaped('GET /caf\\xC3\\xA9 HTTP/1.1')).toBe('GET /café HTTP/1.1');
    expect(unescaped('say \\"hi\\" \\\\ done')).toBe('say "hi" \\ done');
  });
});

describe('hostile lines', () => {
  const readers = [clfFormat('combined'), clfFormat('common'), clfFormat('vhost_combined'), caddyFormat, w3cFormat, logFormat(CUSTOM)];
  const lineLike = fc.oneof(
    fc.string({ maxLength: 400 }),
    fc.string({ maxLength: 400, unit: 'binary' }),
    fc
      .tuple(fc.ipV4(), fc.string({ maxLength: 30 }), fc.string({ maxLength: 80 }), fc.integer({ min: -5, max: 1200 }))
      .map(
        ([address, method, path, status]) =>
          `${address} - - [01/Sep/2026:08:15:02 +0000] "${method} ${path} HTTP/1.1" ${status} 1 "-" "${path}"`,
      ),
    fc
      .tuple(
        fc.ipV4(),
        fc.string({ maxLength: 30 }),
        fc.string({ maxLength: 80 }),
        fc.oneof(fc.integer(), fc.double(), fc.string()),
        fc.double(),
      )
      .map(([address, method, uri, status, ts]) =>
        JSON.stringify({ ts, request: { client_ip: address, method, uri, headers: { 'User-Agent': [uri] } }, status }),
      ),
  );

  it('never throw, and whatever they read that the command would send, the endpoint takes', () => {
    fc.assert(
      fc.property(fc.array(lineLike, { maxLength: 8 }), (lines) => {
        for (const format of readers) {
          const reader = format.reader();
          reader.read('#Fields: date time c-ip cs-method cs-uri-stem sc-status cs(User-Agent)');
          for (const line of lines) {
            const read = reader.read(line);
            if (read.kind !== 'record' || refusal(read.record, Date.now()) !== null) continue;
            const parsed = importHitSchema.safeParse(hitOf(read.record, undefined));
            expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('leave a line of another time or method unreadable, and import the rest', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'headcount-hostile-'));
    const file = join(dir, 'caddy.log');
    const entry = (ts: number, method: string, status: unknown) =>
      JSON.stringify({
        ts,
        request: {
          client_ip: '81.128.4.4',
          method,
          uri: '/',
          headers: { 'User-Agent': ['Mozilla/5.0 (X11; Linux x86_64; rv:130.0) Gecko/20100101 Firefox/130.0'] },
        },
        status,
      });
    writeFileSync(
      file,
      [
        entry(1_788_595_200, 'GET', 200),
        entry(4_102_444_800, 'GET', 200),
        entry(473_385_600, 'GET', 200),
        entry(1_788_595_201, 'G E T', 200),
        entry(1_788_595_202, 'GET', 70_000),
      ].join('\n'),
    );
    const summary = await runImport(
      { inputs: [file], format: 'auto', dryRun: true, target: null, until: '2030-01-01' },
      { out: () => undefined },
    );
    rmSync(dir, { recursive: true, force: true });
    expect(summary.sent).toBe(2);
    expect(summary.unreadable.first.map((problem) => problem.why)).toEqual([
      'its time is ahead of this machine’s clock',
      'its time is before 1990',
      'its method is not an HTTP method',
    ]);
  });
});
