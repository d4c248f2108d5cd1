import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { stackPlace, startStack, type StackProcess } from '../support/stack-process';
import { closeContexts, pageTroubles, workerChromium } from './support';

// The README's first screen, followed as a newcomer would on a fresh clone: `npm start`, the dashboard address its
// banner prints (which answers 200), `npm run simulate` in a second terminal, then the dashboard in a browser, signed
// in with the key the README names, with people in it, from real countries. Only the ports differ from a newcomer's (the
// test's own, so it runs beside anything else): the banner says which `--port` to give simulate, and the test gives it.

const root = join(__dirname, '..', '..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');

/** The README's quick look: its commands (the first code block under the heading) and the key it says to sign in with. */
function quickLook() {
  const section = readme.slice(readme.indexOf('## A first look, in five minutes'));
  const block = /```sh\n([\s\S]*?)```/.exec(section)![1]!;
  const commands = block
    .split('\n')
    .map((line) => line.replace(/#.*$/, '').trim())
    .filter(Boolean);
  const key = /sign in with the local key `([^`]+)`/.exec(section)![1]!;
  const address = /\*\*<(http[^>]+)>\*\*/.exec(section)![1]!;
  return { commands, key, address, section: section.slice(0, section.indexOf('\n## ', 10)) };
}

/** Runs a command as a second terminal would, and gives its output once it has finished. */
function run(command: string, args: string[], env: Record<string, string>): Promise<{ status: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('close', (status) => resolve({ status, output }));
  });
}

describe("the README's first five minutes", () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'headcount-quick-look-'));
  let stack: StackProcess | undefined;
  let browser: Browser | undefined;
  afterAll(async () => {
    await closeContexts(browser);
    await stack?.kill();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('says what to run, what to open, the key, and why your own browsing is not counted', () => {
    const look = quickLook();
    expect(look.commands).toEqual(['npm install', 'npm start', 'npm run simulate']);
    expect(look.address).toBe('http://127.0.0.1:7071/api/admin');
    expect(look.key).toBe(JSON.parse(readFileSync(join(root, 'local.settings.example.json'), 'utf8')).Values.OPERATOR_KEY);
    expect(look.section).toMatch(/own\s+browsing is not counted: a request from this machine \(loopback\) is the site reading itself/);
    // The first screen: the quick look comes before anything else the README says.
    expect(readme.indexOf('\n## ')).toBe(readme.indexOf('\n## A first look, in five minutes'));
  });

  it('from npm start to a dashboard with people in it, in headless Chromium', async () => {
    const look = quickLook();
    const place = await stackPlace(dataDir);
    // The README's key, whatever a local.settings.json beside the clone says: the environment wins over both files.
    const { HASH_KEY: _hash, INGEST_KEY: _ingest, OPERATOR_KEY: _operator, ...ports } = place.env;
    const example = JSON.parse(readFileSync(join(root, 'local.settings.example.json'), 'utf8')).Values as Record<string, string>;
    const env = { ...ports, HASH_KEY: example.HASH_KEY!, INGEST_KEY: example.INGEST_KEY!, OPERATOR_KEY: look.key };
    stack = await startStack({ ...place, env }, ['--fresh']);

    // The banner names the dashboard, and it answers.
    const banner = stack.output();
    const dashboard = `${place.url}/api/admin`;
    expect(banner).toContain(`Dashboard    ${dashboard}`);
    expect(banner).toContain(look.key);
    expect(banner).toMatch(/not counted: a request from loopback is the site reading itself/);
    // Started on a port of the test's own (PORT), which a second terminal does not have: the banner gives it.
    const simulate = /People in it (npm run simulate.*?) {4}\(/.exec(banner)![1]!;
    expect(simulate).toBe(`npm run simulate -- --port ${new URL(place.url).port}`);
    expect((await fetch(dashboard)).status).toBe(200);

    // The second terminal: npm run simulate as the banner wrote it.
    const terminal: Record<string, string> = { ...env };
    delete terminal.PORT;
    const [command, ...args] = simulate.split(' ');
    const simulated = await run(command!, args, terminal);
    expect(simulated.output).toMatch(/people, each counted once: [1-9]\d* since/);
    expect(simulated.status).toBe(0);

    browser = await workerChromium();
    const page = await browser.newPage();
    const troubles = pageTroubles(page);
    await page.goto(dashboard);
    await page.waitForSelector('body[data-ready="true"]');
    await page.fill('#key', look.key);
    await page.press('#key', 'Enter');
    await page.waitForSelector('#dashboard[data-state="ready"]');
    const people = Number((await page.textContent('[data-figure="people_all_time"] .figure'))!.replace(/,/g, ''));
    expect(people).toBeGreaterThan(0);
    expect(await page.textContent('[data-figure="people_all_time"] .change')).toMatch(/^since \d{1,2} \w{3}/);
    expect(Number((await page.textContent('[data-figure="visits"] .figure'))!.replace(/,/g, ''))).toBeGreaterThan(0);
    // Simulated people come from real countries, each named, none Unknown.
    const where = (await page.textContent('#countries'))!;
    for (const country of ['United States', 'Germany', 'Japan']) expect(where).toContain(country);
    expect(where).not.toContain('Unknown');
    // Read from the local stand-in, and said so.
    expect(await page.textContent('#all-time-source')).toBe(
      'Read from: kept in the local Cosmos DB stand-in (headcount/activity) with no expiry for people.',
    );
    // The simulated week fits the page heights the dashboard holds to: 2.5 screens at 1280 px, 6 at 375 px.
    for (const [width, height, screens] of [
      [1280, 800, 2.5],
      [375, 812, 6],
    ] as const) {
      await page.setViewportSize({ width, height });
      const tall = await page.evaluate(() => document.documentElement.scrollHeight);
      expect(tall / height, `${width} px: ${tall} px`).toBeLessThanOrEqual(screens);
    }
    expect(troubles).toEqual([]);
  }, 300_000);
});
