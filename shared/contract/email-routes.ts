import { text } from './responses';
import type { Route } from './route';

// The links in mail: a recipient confirms, and every report and alert can be unsubscribed from.

const page = (description: string) => ({ description, content: { 'text/html': text() } });

const link = (action: 'confirm' | 'unsubscribe', summary: string, done: string): Route => ({
  method: 'get',
  path: `/api/email/${action}`,
  operationId: `email-${action}`,
  summary,
  description:
    'A link from a mail, answered as a small plain page. Its token is kept only as a keyed hash, and counted before it is checked, as every guessable secret is.',
  security: [],
  parameters: [{ name: 'token', in: 'query', required: true, schema: { type: 'string' }, description: "The link's token." }],
  responses: {
    '200': page(done),
    '404': page('The same page for a wrong token and an expired one.'),
    '429': page('Too many wrong tokens from this address; it waits before its next try.'),
  },
});

export const EMAIL_ROUTES: Route[] = [
  link('confirm', 'Confirm a recipient', 'Confirmed: reports and alerts set for the site are sent to this address.'),
  link('unsubscribe', 'Unsubscribe a recipient', 'Unsubscribed: no more mail goes to this address for the site.'),
];
