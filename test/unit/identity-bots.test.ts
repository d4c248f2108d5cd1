import { describe, expect, it } from 'vitest';
import { isBotAgent } from '../../shared/core/identity/agent';
import { isScannerPath } from '../../shared/core/identity/paths';

const BOTS = {
  googlebot: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  googlebotSmartphone:
    'Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.204 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  bingbot: 'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
  facebook: 'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
  slack: 'Slackbot-LinkExpanded 1.0 (+https://api.slack.com/robots)',
  curl: 'curl/8.5.0',
  pythonRequests: 'python-requests/2.31.0',
  goHttp: 'Go-http-client/1.1',
};

const BROWSERS = {
  chromeWindows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  firefoxLinux: 'Mozilla/5.0 (X11; Linux x86_64; rv:131.0) Gecko/20100101 Firefox/131.0',
  safariIPhone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  chromeAndroid: 'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.135 Mobile Safari/537.36',
  edgeWindows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.86',
  safariMac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
};

describe('bots by their agent', () => {
  it.each(Object.entries(BOTS))('%s is a bot', (_name, agent) => {
    expect(isBotAgent(agent)).toBe(true);
  });

  it('no agent at all is a bot', () => {
    expect(isBotAgent('')).toBe(true);
    expect(isBotAgent('   ')).toBe(true);
    expect(isBotAgent(null)).toBe(true);
    expect(isBotAgent(undefined)).toBe(true);
  });

  it.each(Object.entries(BROWSERS))('%s is not a bot', (_name, agent) => {
    expect(isBotAgent(agent)).toBe(false);
  });
});

describe('bots by what they ask for', () => {
  it.each([
    '/wp-login.php',
    '/.env',
    '/.git/config',
    '/xmlrpc.php',
    '/wp-admin/',
    '/phpmyadmin/',
    '/.git/HEAD',
    '/wp-admin/setup-config.php',
    '/api/.env',
    '/.env.production',
    '/blog/xmlrpc.php',
    '/PHPMYADMIN/index.php',
    '/cgi-bin/luci',
  ])('%s is a scanner path', (path) => {
    expect(isScannerPath(path)).toBe(true);
  });

  it.each([
    '/about',
    '/',
    '/blog/post-1',
    '/.well-known/security.txt',
    '/.well-known/acme-challenge/abc123',
    '/api/users.json',
    '/blog/how-to-use-env-files',
    '/blog/.env-tips',
    '/environment',
    '/gitlab',
    '/wp',
    '/docs/wp-login-guide',
  ])('%s is not a scanner path', (path) => {
    expect(isScannerPath(path)).toBe(false);
  });
});
