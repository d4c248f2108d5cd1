/** The referrer kept: only on a page load, only its lowercased host; null for anything else or anything unreadable. */
export function referrerHost(referrer: string | null | undefined, pageLoad: boolean): string | null {
  if (!pageLoad || !referrer) return null;
  try {
    const url = new URL(referrer);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    return url.hostname.toLowerCase() || null;
  } catch {
    return null;
  }
}
