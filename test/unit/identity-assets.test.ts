import { describe, expect, it } from 'vitest';
import { isAsset, isIgnoredPath } from '../../shared/core/identity/paths';

const DEFAULT_IGNORED = ['/api/admin', '/admin'];

describe('the files a page is made of are not counted', () => {
  it.each([
    '/app.js',
    '/styles/site.css',
    '/fonts/x.woff2',
    '/img/a.png',
    '/favicon.ico',
    '/robots.txt',
    '/sitemap.xml',
    '/assets/app.8f3a1c.mjs',
    '/img/Photo.JPG',
    '/app.js.map',
    '/site.webmanifest',
  ])('%s is an asset', (path) => {
    expect(isAsset(path)).toBe(true);
  });

  it.each([
    '/',
    '/about',
    '/blog/post-1',
    '/api/data',
    '/docs/guide.txt',
    '/feeds/blog.xml',
    '/.well-known/security.txt',
    '/v1.2/about',
    '/users/jane.doe',
    '/.env',
  ])('%s is not an asset', (path) => {
    expect(isAsset(path)).toBe(false);
  });

  it('counts .txt and .xml only away from the root: at the root they are files for crawlers, deeper they are documents', () => {
    expect(isAsset('/robots.txt')).toBe(true);
    expect(isAsset('/docs/guide.txt')).toBe(false);
    expect(isAsset('/sitemap.xml')).toBe(true);
    expect(isAsset('/feeds/blog.xml')).toBe(false);
  });
});

describe('ignored paths', () => {
  it.each(['/api/admin', '/api/admin/', '/api/admin/visitors/people', '/admin', '/admin/', '/admin/settings', '/API/Admin/visitors'])(
    '%s is ignored by default',
    (path) => {
      expect(isIgnoredPath(path, DEFAULT_IGNORED)).toBe(true);
    },
  );

  it.each(['/administrator', '/api/administrator', '/api/adminx', '/admins', '/about', '/', '/blog/admin'])(
    '%s is not ignored: a prefix ends at a segment boundary',
    (path) => {
      expect(isIgnoredPath(path, DEFAULT_IGNORED)).toBe(false);
    },
  );

  it('reads a configured prefix with or without a trailing slash the same', () => {
    expect(isIgnoredPath('/internal/health', ['/internal/'])).toBe(true);
    expect(isIgnoredPath('/internal', ['/internal/'])).toBe(true);
    expect(isIgnoredPath('/internals', ['/internal/'])).toBe(false);
  });

  it('ignores nothing when no prefix is configured', () => {
    expect(isIgnoredPath('/api/admin', [])).toBe(false);
  });
});
