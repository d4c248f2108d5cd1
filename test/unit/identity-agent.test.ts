import { describe, expect, it } from 'vitest';
import { agentFamily } from '../../shared/core/identity/agent';
import { personHash } from '../../shared/core/identity/tokens';

const KEY = 'test-hash-key-0123456789abcdef';
const ADDRESS = '203.0.113.7';
const person = (agent: string) => personHash(KEY, ADDRESS, agentFamily(agent));

/** Real agent strings, as the browsers send them. */
const UA = {
  chrome120Windows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
  chrome131Windows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  safari171iPhone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1',
  safari174iPhone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  firefox121Windows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:121.0) Gecko/20100101 Firefox/121.0',
  firefox131Windows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:131.0) Gecko/20100101 Firefox/131.0',
  edge120Windows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Edg/120.0.2210.91',
  edge131Windows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.86',
  chrome120Android: 'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.6099.144 Mobile Safari/537.36',
  chrome131Android: 'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.135 Mobile Safari/537.36',
  chrome131Mac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  googlebot: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  googlebotSmartphone:
    'Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.204 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  curl8: 'curl/8.5.0',
  curl7: 'curl/7.68.0',
};

describe('the agent family: the agent with every version number taken out', () => {
  it('keeps Chrome 120 and Chrome 131 on Windows the same person', () => {
    expect(agentFamily(UA.chrome131Windows)).toBe(agentFamily(UA.chrome120Windows));
    expect(person(UA.chrome131Windows)).toBe(person(UA.chrome120Windows));
  });

  it('keeps Safari 17.1 and 17.4 on an iPhone (the OS updated too) the same person', () => {
    expect(agentFamily(UA.safari174iPhone)).toBe(agentFamily(UA.safari171iPhone));
    expect(person(UA.safari174iPhone)).toBe(person(UA.safari171iPhone));
  });

  it('keeps Firefox 121 and 131 the same person', () => {
    expect(person(UA.firefox131Windows)).toBe(person(UA.firefox121Windows));
  });

  it('keeps Edge across its versions the same person, and apart from Chrome on the same machine', () => {
    expect(person(UA.edge131Windows)).toBe(person(UA.edge120Windows));
    expect(person(UA.edge131Windows)).not.toBe(person(UA.chrome131Windows));
  });

  it('keeps Chrome on Android the same person when it updates', () => {
    expect(person(UA.chrome131Android)).toBe(person(UA.chrome120Android));
  });

  it('tells Chrome and Firefox on the same OS apart', () => {
    expect(person(UA.firefox131Windows)).not.toBe(person(UA.chrome131Windows));
  });

  it('tells Chrome on a Windows desktop, on a Mac and on Android apart', () => {
    expect(person(UA.chrome131Android)).not.toBe(person(UA.chrome131Windows));
    expect(person(UA.chrome131Mac)).not.toBe(person(UA.chrome131Windows));
    expect(person(UA.chrome131Mac)).not.toBe(person(UA.chrome131Android));
  });

  it('holds no version number', () => {
    for (const agent of Object.values(UA)) expect(agentFamily(agent)).not.toMatch(/\d/);
  });

  it('reads a crawler apart from the browser it imitates', () => {
    expect(agentFamily(UA.googlebot)).not.toBe('');
    expect(person(UA.googlebotSmartphone)).not.toBe(person(UA.chrome131Android));
    expect(person(UA.googlebot)).not.toBe(person(UA.chrome131Windows));
    expect(agentFamily(UA.googlebot)).toBe(agentFamily(UA.googlebot.replace('2.1', '2.2')));
  });

  it('keeps an HTTP library as its name without the version: curl 7 and curl 8 are one family, apart from browsers', () => {
    expect(agentFamily(UA.curl8)).toBe(agentFamily(UA.curl7));
    expect(agentFamily(UA.curl8)).toContain('curl');
    expect(person(UA.curl8)).not.toBe(person(UA.chrome131Windows));
  });

  it('reads an empty or blank agent as one family of its own', () => {
    expect(agentFamily('')).toBe(agentFamily('   '));
    expect(agentFamily('')).not.toBe(agentFamily(UA.curl8));
    expect(person('')).toMatch(/^[0-9a-f]{32}$/);
  });

  it('ignores the case and spacing of an agent no parser knows', () => {
    expect(agentFamily('MyFetcher/1.2  (build 77)')).toBe(agentFamily('myfetcher/3.4 (build 8)'));
  });
});
