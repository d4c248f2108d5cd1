import { campaignQuery } from './campaign';

/** The longest path kept; longer ones are cut, so a document cannot be inflated through a path. */
export const MAX_PATH_LENGTH = 512;

const ABSOLUTE = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i;

/** Where the query or the fragment starts (the first `?` or `#`), or -1. */
function queryOrFragment(path: string): number {
  const query = path.indexOf('?');
  const fragment = path.indexOf('#');
  if (query === -1) return fragment;
  return fragment === -1 || query < fragment ? query : fragment;
}

/**
 * The path as kept: no query string or fragment, no scheme or host, `@` percent-encoded so an address pasted into a URL
 * cannot travel, cut to MAX_PATH_LENGTH. Always starts with '/'.
 */
export function cleanPath(raw: string): string {
  let path = raw.trim();
  // Only a text that starts with a letter can start with a scheme (most paths start with '/').
  const absolute = path.startsWith('/') ? null : ABSOLUTE.exec(path);
  if (absolute) path = path.slice(absolute[0].length);
  const end = queryOrFragment(path);
  if (end !== -1) path = path.slice(0, end);
  if (!path.startsWith('/')) path = `/${path}`;
  const encoded = path.includes('@') ? path.replace(/@/g, '%40') : path;
  if (encoded.length <= MAX_PATH_LENGTH) return encoded;
  // Cut after encoding, so the bound holds; a percent escape the cut broke in two (`%4`) is dropped whole.
  return encoded.slice(0, MAX_PATH_LENGTH).replace(/%[0-9A-Fa-f]?$/, '');
}

/**
 * A path as the ingest takes it, whatever its length: the path as kept (cleanPath: no query or fragment, cut to
 * MAX_PATH_LENGTH) and, of its query, only the four campaign tags (the only part of a query ever read). A long path
 * or query is never a reason to refuse a hit: it is cut like any other.
 */
export function keptPath(raw: string): string {
  return cleanPath(raw) + campaignQuery(raw);
}

const assetExtensions = new Set([
  'js',
  'mjs',
  'cjs',
  'map',
  'css',
  'png',
  'jpg',
  'jpeg',
  'gif',
  'svg',
  'ico',
  'webp',
  'avif',
  'bmp',
  'tif',
  'tiff',
  'woff',
  'woff2',
  'ttf',
  'otf',
  'eot',
  'mp4',
  'webm',
  'mp3',
  'ogg',
  'wav',
  'webmanifest',
  'wasm',
]);

/** Whether the path is one of the files a page is made of (scripts, styles, fonts, images) or a .txt/.xml file at the root. */
export function isAsset(path: string): boolean {
  const last = path.slice(path.lastIndexOf('/') + 1).toLowerCase();
  const dot = last.lastIndexOf('.');
  if (dot <= 0 && !last.startsWith('.')) return false;
  const extension = last.slice(dot + 1);
  if (assetExtensions.has(extension)) return true;
  const atRoot = path.lastIndexOf('/') === 0;
  return atRoot && (extension === 'txt' || extension === 'xml');
}

/** Whether the path is one the site owner has said not to count (by default the Admin tab's own routes). */
export function isIgnoredPath(path: string, ignored: readonly string[]): boolean {
  const lower = path.toLowerCase();
  return ignored.some((prefix) => {
    const p = prefix.toLowerCase().replace(/\/+$/, '');
    return lower === p || lower.startsWith(`${p}/`);
  });
}

const scannerPatterns: readonly RegExp[] = [
  /^\/wp-(login|admin|includes|content|config|json)/i,
  /\/xmlrpc\.php$/i,
  /^\/(\.env|\.git|\.svn|\.hg|\.aws|\.ssh|\.docker|\.vscode|\.idea|\.DS_Store|\.htaccess|\.htpasswd)(\/|\.|$)/i,
  /\/\.env(\.|$)/i,
  /^\/(phpmyadmin|pma|myadmin|mysql|adminer)(\/|\.php|$)/i,
  /^\/(cgi-bin|boaform|actuator|vendor\/phpunit|HNAP1|solr|owa|ecp|autodiscover|remote\/login|geoserver|console)(\/|$)/i,
  /^\/(server-status|server-info|setup\.cgi|shell|config\.json|config\.php|info\.php|phpinfo\.php|wlwmanifest\.xml)$/i,
  /\.(php|asp|aspx|jsp|cgi|sql|bak|old|ini|log|sh|env)$/i,
];

/** Whether the path is one a scanner asks for: WordPress probes, dotfiles, admin panels, script and backup files. */
export function isScannerPath(path: string): boolean {
  return scannerPatterns.some((pattern) => pattern.test(path));
}
