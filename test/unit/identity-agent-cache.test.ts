import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  AGENT_CACHE_SIZE,
  MAX_REMEMBERED_AGENT,
  UNCACHED_AGENTS,
  agentFamily,
  agentVerdicts,
  isBotAgent,
  readAgent,
} from '../../shared/core/identity/agent';
import { deviceOf } from '../../shared/core/identity/device';
import { AUTOMATION, REAL_BROWSERS } from '../support/browser-headers';

/** The agents of the access-log fixture: the last quoted field of each combined-format line. */
const loggedAgents = readFileSync(join(__dirname, '..', 'fixtures', 'logs', 'nginx-combined.log'), 'utf8')
  .split('\n')
  .map((line) => /"([^"]*)"\s*$/.exec(line)?.[1])
  .filter((agent): agent is string => agent !== undefined);

/** Real agents (the browser-header fixtures', the log fixture's), crawlers, libraries, and agents that are hardly any. */
const AGENTS: readonly string[] = [
  ...new Set([
    ...REAL_BROWSERS.map((set) => set.headers['user-agent']!),
    ...AUTOMATION.map((set) => set.headers['user-agent'] ?? ''),
    ...loggedAgents,
    'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.135 Mobile Safari/537.36',
    'Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.86',
    'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36',
    'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
    'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
    'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
    'Slackbot-LinkExpanded 1.0 (+https://api.slack.com/robots)',
    'curl/8.5.0',
    'python-requests/2.31.0',
    'Go-http-client/1.1',
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36',
    'headcount-self/1.0',
    '',
    '   ',
    'Mozilla/5.0',
    'something 1.2.3 with   spaces',
  ]),
];

const uncached = (agent: string) => {
  const family = agentFamily(agent);
  return { family, bot: isBotAgent(agent), device: deviceOf(family) };
};

describe("an agent's verdict", () => {
  it('is its family, its bot verdict and its family’s device, as each rule alone says', () => {
    expect(AGENTS.length).toBeGreaterThan(25);
    for (const agent of AGENTS) {
      expect(readAgent(agent), agent).toEqual(uncached(agent));
      expect(UNCACHED_AGENTS.read(agent), agent).toEqual(uncached(agent));
    }
  });

  it('cannot be changed by whoever reads it: the cache hands the same one to every hit', () => {
    const verdict = agentVerdicts().read(AGENTS[0]!);
    expect(Object.isFrozen(verdict)).toBe(true);
    expect(Object.isFrozen(verdict.device)).toBe(true);
  });
});

describe('the agent cache', () => {
  it('answers exactly what the rules answer uncached, the first time and every time after, for real agents', () => {
    const cache = agentVerdicts();
    for (let round = 0; round < 3; round += 1) {
      for (const agent of AGENTS) expect(cache.read(agent), agent).toEqual(uncached(agent));
    }
    expect(cache.size).toBe(AGENTS.length);
  });

  it('answers the same even when so small that it forgets between reads', () => {
    const cache = agentVerdicts(3);
    for (let round = 0; round < 2; round += 1) {
      for (const agent of AGENTS) expect(cache.read(agent), agent).toEqual(uncached(agent));
    }
    expect(cache.size).toBe(3);
  });

  it('holds at most its capacity, however many agents it is shown', () => {
    const cache = agentVerdicts(50);
    for (let n = 0; n < 1000; n += 1) cache.read(`Mozilla/5.0 (X11; Linux x86_64; rv:${n}.0) Gecko/20100101 Firefox/${n}.0 custom-${n}`);
    expect(cache.size).toBe(50);
    expect(agentVerdicts().read('curl/8.5.0')).toEqual(uncached('curl/8.5.0'));
    expect(AGENT_CACHE_SIZE).toBeGreaterThanOrEqual(1000);
  });

  it('forgets the agent read least recently, and keeps one read again', () => {
    const [a, b, c, d] = AGENTS as [string, string, string, string];
    const cache = agentVerdicts(3);
    const first = { a: cache.read(a), b: cache.read(b), c: cache.read(c) };
    // Remembered: the very verdict it answered before.
    expect(cache.read(a)).toBe(first.a);
    // d comes in: b, read least recently (a was read again), goes.
    cache.read(d);
    expect(cache.size).toBe(3);
    expect(cache.read(a)).toBe(first.a);
    expect(cache.read(c)).toBe(first.c);
    const again = cache.read(b);
    expect(again).not.toBe(first.b);
    expect(again).toEqual(first.b);
    // b came back in place of d, the least recently read by then.
    expect(cache.read(a)).toBe(first.a);
    expect(cache.read(c)).toBe(first.c);
  });

  it('reads a long agent afresh and does not remember it, so made-up agents cannot fill memory', () => {
    const cache = agentVerdicts(10);
    const long = `Mozilla/5.0 (X11; Linux x86_64) ${'x'.repeat(MAX_REMEMBERED_AGENT)}`;
    expect(cache.read(long)).toEqual(uncached(long));
    expect(cache.read(long)).toEqual(uncached(long));
    expect(cache.size).toBe(0);
    const atTheLimit = 'a'.repeat(MAX_REMEMBERED_AGENT);
    cache.read(atTheLimit);
    expect(cache.size).toBe(1);
  });

  it('remembers an agent under its exact text, whatever it holds (a lone surrogate, a letter outside the basic plane)', () => {
    const cache = agentVerdicts(10);
    for (const agent of ['Mozilla/5.0 \uD800 odd', 'Mozilla/5.0 😀 (X11; Linux x86_64)', 'Mozilla/5.0 é']) {
      const first = cache.read(agent);
      expect(cache.read(agent)).toBe(first);
      expect(first).toEqual(uncached(agent));
    }
    expect(cache.size).toBe(3);
  });

  it('keeps two caches apart (each process, or each test, builds its own)', () => {
    const one = agentVerdicts(5);
    const two = agentVerdicts(5);
    one.read('curl/8.5.0');
    expect(one.size).toBe(1);
    expect(two.size).toBe(0);
  });

  it('refuses a capacity that holds nothing', () => {
    expect(() => agentVerdicts(0)).toThrow();
    expect(() => agentVerdicts(1.5)).toThrow();
    expect(agentVerdicts(1).size).toBe(0);
  });
});
