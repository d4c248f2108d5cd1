import { campaignQuery } from './campaign';

/** Longer paths are cut, so a document cannot be inflated through a path. */
export const MAX_PATH_LENGTH = 512;

const ABSOLUTE = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i;

function firstOf(path: string, from: number): number {
  const query = path.indexOf('?', from);
  const fragment = path.indexOf('#', from);
  if (query === -1) return fragment;
  return fragment === -1 || query < fragment ? query : fragment;
}

/** A hash route (`/#/about`, sent by the snippet with `data-hash`) is part of the page; its own query is not. */
function queryOrFragment(path: string): number {
  const end = firstOf(path, 0);
  return end !== -1 && path.startsWith('#/', end) ? firstOf(path, end + 1) : end;
}

/** No query, fragment but a hash route, scheme or host, and `@` encoded so an address pasted into a URL cannot travel. */
export function cleanPath(raw: string): string {
  let path = raw.trim();
  // Most paths start with '/', and only a letter can start a scheme.
  const absolute = path.startsWith('/') ? null : ABSOLUTE.exec(path);
  if (absolute) path = path.slice(absolute[0].length);
  const end = queryOrFragment(path);
  if (end !== -1) path = path.slice(0, end);
  if (!path.startsWith('/')) path = `/${path}`;
  const encoded = path.includes('@') ? path.replace(/@/g, '%40') : path;
  if (encoded.length <= MAX_PATH_LENGTH) return encoded;
  // Cut after encoding, so the bound holds; a percent escape the cut broke in two is dropped.
  return encoded.slice(0, MAX_PATH_LENGTH).replace(/%[0-9A-Fa-f]?$/, '');
}

/** Keeps the cleaned path and only the campaign tags of its query; a long path is cut, never refused. */
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

/** Scripts, styles, fonts and images, or a .txt or .xml file at the root. */
export function isAsset(path: string): boolean {
  const last = path.slice(path.lastIndexOf('/') + 1).toLowerCase();
  const dot = last.lastIndexOf('.');
  if (dot <= 0 && !last.startsWith('.')) return false;
  const extension = last.slice(dot + 1);
  if (assetExtensions.has(extension)) return true;
  const atRoot = path.lastIndexOf('/') === 0;
  return atRoot && (extension === 'txt' || extension === 'xml');
}

/** By default the Admin tab's own routes. */
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

/** WordPress probes, dotfiles, admin panels, script and backup files. */
export function isScannerPath(path: string): boolean {
  return scannerPatterns.some((pattern) => pattern.test(path));
}
