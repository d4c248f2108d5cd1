import { linkBodySchema } from './queries';
import { inputs } from './inputs';
import { SharedCard, SharedLinkMade, SharedLinkRevoked, SharedLinks, SiteList } from './links';
import { error, json, OPERATOR, OPERATOR_ERRORS, ref, sharedAnswer } from './responses';
import type { Route } from './route';

// The sites' list and the shared links' routes: the operator's (make, list, revoke) and the one read a link opens.

inputs.add(linkBodySchema, {
  id: 'SharedLinkBody',
  description: 'A read-only link to one site (or `*`) with, optionally, fixed filters and period, an expiry and a password.',
  fields: {
    site: 'A site of SITES, or `*` for all of them; without it, the only site declared (400 when there are several).',
    filters: 'Fixed `dimension:value` filters (as the card takes them); the viewer cannot take them off.',
    days: 'A fixed period, as the card takes `days`.',
    password: 'Hashed with scrypt; the viewer sends it as `x-share-password`.',
  },
});

const shareHeaders = [
  { name: 'x-share-token', in: 'header', required: true, schema: { type: 'string' }, description: "The link's token." },
  {
    name: 'x-share-password',
    in: 'header',
    required: false,
    schema: { type: 'string' },
    description: "The link's password, when it has one and no `x-share-pass` is sent.",
  },
  {
    name: 'x-share-pass',
    in: 'header',
    required: false,
    schema: { type: 'string' },
    description: 'The proof a right password was answered with, in its place for 12 hours: no password is checked again.',
  },
];
const shareErrors = {
  '401': error(
    'No token (`unauthorized`), a wrong token or a wrong password (both `unauthorized`, with the same message; each counted before it is checked, the password per link), a revoked (`revoked`) or expired (`expired`) link, or a password asked for (`password_required`, only for a link that has one).',
  ),
  '429': sharedAnswer('TooManyAttempts'),
};

export const LINK_ROUTES: Route[] = [
  {
    method: 'get',
    path: '/api/admin/sites',
    operationId: 'admin-sites',
    summary: 'The sites counted',
    description: "The sites SITES declares, for the dashboard's switcher.",
    security: OPERATOR,
    responses: { '200': json('The sites.', SiteList), ...OPERATOR_ERRORS },
  },
  {
    method: 'get',
    path: '/api/admin/links',
    operationId: 'admin-links-list',
    summary: 'The shared links',
    description: 'Every shared link, newest first, without its token.',
    security: OPERATOR,
    responses: { '200': json('The links.', SharedLinks), ...OPERATOR_ERRORS },
  },
  {
    method: 'post',
    path: '/api/admin/links',
    operationId: 'admin-links-make',
    summary: 'Make a shared link',
    description: "A token of 192 bits from the system's cryptographic source, answered once and kept only as its keyed hash.",
    security: OPERATOR,
    requestBody: { required: true, content: { 'application/json': { schema: ref(linkBodySchema) } } },
    responses: {
      '201': json('Made.', SharedLinkMade),
      '400': sharedAnswer('BadRequest'),
      ...OPERATOR_ERRORS,
    },
  },
  {
    method: 'delete',
    path: '/api/admin/links/{ref}',
    operationId: 'admin-link-revoke',
    summary: 'Revoke a shared link',
    description: 'From now on the link is answered 401.',
    security: OPERATOR,
    parameters: [{ name: 'ref', in: 'path', required: true, schema: { type: 'string' }, description: "The link's ref." }],
    responses: { '200': json('Revoked.', SharedLinkRevoked), '404': error('No such link.'), ...OPERATOR_ERRORS },
  },
  {
    method: 'get',
    path: '/api/shared/activity',
    operationId: 'shared-activity',
    summary: 'The period report a shared link opens',
    description:
      "The link's site's card, read-only: the link's fixed period in place of any asked, its filters added to any asked, and nothing outside that view (no last hours, no all-time figures, no store counters).",
    security: [],
    parameters: shareHeaders,
    responses: {
      '200': json('The card.', SharedCard, {
        'x-share-pass': {
          description: 'After a right password: send it as `x-share-pass` in place of the password for 12 hours.',
          schema: { type: 'string' },
        },
      }),
      ...shareErrors,
    },
  },
];
