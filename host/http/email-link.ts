import type { HttpHandler } from '@azure/functions';
import { clientAddress } from '../../shared/core/identity/address';
import { followEmailLink, type EmailPage } from '../../shared/read/email/links';
import type { EmailToken } from '../../shared/core/store/email';
import type { Root } from '../composition';

const escaped = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const pageOf = (page: EmailPage) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">` +
  `<title>${escaped(page.title)}</title></head><body><h1>${escaped(page.title)}</h1><p>${escaped(page.text)}</p></body></html>`;

/** A link from a mail: its token is a guess, answered as a small plain page. */
export const emailLinkRoute =
  (purpose: EmailToken['purpose']) =>
  (root: Root): HttpHandler =>
  async (request) => {
    const { trustedProxyHops, ...deps } = root.emailLinks;
    const address = clientAddress(request.headers.get('x-forwarded-for'), trustedProxyHops);
    const token = new URL(request.url).searchParams.get('token') ?? '';
    const page = await followEmailLink(purpose, token.slice(0, 100), address, deps);
    return {
      status: page.status,
      headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' },
      body: pageOf(page),
    };
  };
