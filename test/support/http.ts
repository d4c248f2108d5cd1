/** Real-looking agents for fixtures and tests. */
export const AGENTS = {
  chromeWindows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  firefoxLinux: 'Mozilla/5.0 (X11; Linux x86_64; rv:131.0) Gecko/20100101 Firefox/131.0',
  safariIphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  googlebot: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  curl: 'curl/8.5.0',
} as const;

/**
 * The headers the browser an agent names sends on every request, a beacon's too: Accept-Language always, and on
 * Chromium the client hints of its version. A test that plays a browser's beacon from Node sends them, as the browser
 * would: Node's fetch sends no Accept-Language and adds `sec-fetch-mode`, so an agent that claims Chrome without
 * them is a bot by its signals.
 */
export function browserHeaders(agent: string): Record<string, string> {
  const chrome = /Chrome\/(\d+)\./.exec(agent);
  const hints: Record<string, string> = chrome
    ? { 'sec-ch-ua': `"Google Chrome";v="${chrome[1]}", "Chromium";v="${chrome[1]}", "Not_A Brand";v="24"` }
    : {};
  return { 'accept-language': 'en-GB,en;q=0.9', ...hints };
}

/** POSTs JSON to a local host path with the given headers; the body may be a string to send as it is. */
export async function post(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; json: any; headers: Headers }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = text;
  }
  return { status: response.status, json, headers: response.headers };
}
