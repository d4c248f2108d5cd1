import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { assetShelf, packageRoot, partsVersions } from '../../adapters/files/assets';
import { ASSETS, DASHBOARD, KEPT_A_YEAR } from '../../shared/contract/assets';
import { DASHBOARD_MODULES } from '../../shared/contract/dashboard-modules';
import { serveAsset } from '../../host/http/assets';

const root = join(__dirname, '..', '..');
const shelf = assetShelf(ASSETS, root);
const headers = (given: Record<string, string>) => (name: string) => given[name] ?? null;

describe('the files the pages are made of', () => {
  it('are found from the package root wherever the code runs (the project, or the deployed package from dist/)', () => {
    expect(packageRoot(join(root, 'adapters', 'files'))).toBe(root);
    const deployed = mkdtempSync(join(tmpdir(), 'headcount-package-'));
    try {
      writeFileSync(join(deployed, 'package.json'), '{}');
      mkdirSync(join(deployed, 'dist', 'adapters', 'files'), { recursive: true });
      expect(packageRoot(join(deployed, 'dist', 'adapters', 'files'))).toBe(deployed);
    } finally {
      rmSync(deployed, { recursive: true, force: true });
    }
  });

  it('serve only the whitelist: a name off it, or one that climbs out of public/, is 404', () => {
    for (const name of ['admin.html', '../package.json', 'package.json', 'toString', '__proto__', 'chart.js']) {
      expect(serveAsset(shelf(name), headers({})).status, name).toBe(404);
    }
  });

  it('serve the snippet and the widget to any site (CORS *), gzipped when asked, the bytes as they are on disk', () => {
    for (const name of ['headcount.js', 'headcount-pulse.js']) {
      const plain = serveAsset(shelf(name), headers({}));
      expect(plain.status).toBe(200);
      expect(plain.headers).toMatchObject({
        'content-type': 'text/javascript; charset=utf-8',
        'access-control-allow-origin': '*',
        'cross-origin-resource-policy': 'cross-origin',
        'cache-control': 'public, max-age=3600',
      });
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(Buffer.from(plain.body!).equals(readFileSync(join(root, 'public', name)))).toBe(true);
      const gzipped = serveAsset(shelf(name), headers({ 'accept-encoding': 'gzip, deflate, br' }));
      expect(gzipped.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gzipped.body!).equals(Buffer.from(plain.body!))).toBe(true);
      expect(serveAsset(shelf(name), headers({ 'accept-encoding': 'gzip;q=0, br' })).headers['content-encoding']).toBeUndefined();
    }
  });

  it("serve every module of the dashboard, and each one's imports are served too", () => {
    const modules = readdirSync(join(root, 'public')).filter((name) => /^admin.*\.js$/.test(name));
    expect([...DASHBOARD_MODULES].sort()).toEqual(modules.sort());
    for (const name of modules) {
      expect(serveAsset(shelf(name), headers({})).headers['content-type'], name).toBe('text/javascript; charset=utf-8');
      const imported = [...readFileSync(join(root, 'public', name), 'utf8').matchAll(/ from '\.\/([^']+)';$/gm)].map((m) => m[1]!);
      for (const module of imported) expect(DASHBOARD_MODULES, `${name} imports ${module}`).toContain(module);
    }
  });

  it('leave no panel in the page: each module that makes one is registered in admin-panels.js, in the grid', () => {
    expect(readFileSync(join(root, 'public', 'admin.html'), 'utf8')).not.toMatch(/class="[^"]*\bpanel\b/);
    const registry = readFileSync(join(root, 'public', 'admin-panels.js'), 'utf8');
    const made = readdirSync(join(root, 'public'))
      .filter((name) => /^admin.*\.js$/.test(name))
      .flatMap((name) => [...readFileSync(join(root, 'public', name), 'utf8').matchAll(/^export const (\w+Panel) = /gm)].map((m) => m[1]!));
    expect(made.length).toBeGreaterThan(5);
    for (const panel of made) expect(registry, panel).toMatch(new RegExp(`PANELS = \\[[^\\]]*\\b${panel}\\b`));
  });

  it('keep the dashboard parts and the chart library to the app: no CORS header, and chart.js from its package', () => {
    for (const name of [...DASHBOARD_MODULES, 'admin.css', 'chart.umd.min.js']) {
      expect(serveAsset(shelf(name), headers({})).headers['access-control-allow-origin'], name).toBeUndefined();
    }
    expect(serveAsset(shelf('admin.css'), headers({})).headers['content-type']).toBe('text/css; charset=utf-8');
    expect(Buffer.from(serveAsset(shelf('chart.umd.min.js'), headers({})).body!).toString('utf8')).toContain('Chart.js v4');
  });

  it("are named by the page and the modules at the dashboard's version, kept a year there, and a change to any part moves it", () => {
    const page = assetShelf({ 'admin.html': DASHBOARD }, root, partsVersions(ASSETS, root))('admin.html')!;
    const version = shelf('admin.js')!.version!;
    expect(version).toMatch(/^[\w-]{12}$/);
    const html = Buffer.from(page.body).toString('utf8');
    for (const part of ['admin.js', 'admin.css', 'chart.umd.min.js']) expect(html).toContain(`/api/assets/${part}?v=${version}"`);
    // The widget is not a part: other sites name it by its plain address.
    expect(html).toContain('/api/assets/headcount-pulse.js"');
    for (const name of DASHBOARD_MODULES) {
      const text = Buffer.from(shelf(name)!.body).toString('utf8');
      const imports = [...text.matchAll(/ from '\.\/([^']+)';$/gm)].map((m) => m[1]!);
      expect(
        imports.every((address) => address.endsWith(`.js?v=${version}`)),
        name,
      ).toBe(true);
      expect(serveAsset(shelf(name), headers({}), version).headers['cache-control'], name).toBe(KEPT_A_YEAR);
      expect(serveAsset(shelf(name), headers({}), 'older').headers['cache-control'], name).toBe('no-cache');
      expect(serveAsset(shelf(name), headers({})).headers['cache-control'], name).toBe('no-cache');
    }
    expect(serveAsset(shelf('headcount.js'), headers({}), version).headers['cache-control']).toBe('public, max-age=3600');

    const copy = mkdtempSync(join(tmpdir(), 'headcount-parts-'));
    try {
      cpSync(join(root, 'public'), join(copy, 'public'), { recursive: true });
      mkdirSync(join(copy, 'node_modules', 'chart.js', 'dist'), { recursive: true });
      cpSync(join(root, ASSETS['chart.umd.min.js']!.file), join(copy, ASSETS['chart.umd.min.js']!.file));
      expect(assetShelf(ASSETS, copy)('admin.js')!.version).toBe(version);
      writeFileSync(
        join(copy, 'public', 'admin-words.js'),
        `${readFileSync(join(copy, 'public', 'admin-words.js'), 'utf8')}\n// changed\n`,
      );
      const moved = assetShelf(ASSETS, copy)('admin.js')!;
      expect(moved.version).not.toBe(version);
      expect(Buffer.from(moved.body).toString('utf8')).toContain(`./admin-words.js?v=${moved.version}'`);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });

  it('keep the snippet under 2 KB gzipped, since it goes on every page of a site', () => {
    expect(shelf('headcount.js')!.gzipped.length).toBeLessThan(2048);
  });

  it('answer 304 with no body when the browser holds the same bytes, and 200 when its tag is another', () => {
    const first = serveAsset(shelf('headcount.js'), headers({}));
    const again = serveAsset(shelf('headcount.js'), headers({ 'if-none-match': `W/"old", ${first.headers.etag}` }));
    expect([again.status, again.body]).toEqual([304, undefined]);
    expect(serveAsset(shelf('headcount.js'), headers({ 'if-none-match': '"old"' })).status).toBe(200);
  });

  it('give the dashboard a policy that loads only the app own scripts and styles, never cached or framed', () => {
    const page = serveAsset(assetShelf({ 'admin.html': DASHBOARD }, root)('admin.html'), headers({}));
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.headers['access-control-allow-origin']).toBeUndefined();
  });
});
