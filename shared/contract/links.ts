import { z } from 'zod';
import { instant } from './common';
import { ActivityCard } from './activity';
import { PeopleCount } from './count';
import { linkBodySchema } from '../read/links/manage';
import { inputs } from './inputs';
import type { Route } from './route';

// The sites' list and the shared links' routes: the operator's (make, list, revoke) and the two reads a link opens.

export const SharedLinkRow = z
  .object({
    ref: z.string().meta({ description: 'The link in the list and in its revoking; it opens nothing.' }),
    site: z.string(),
    label: z.string(),
    filters: z.array(z.string()),
    days: z.string().nullable(),
    created_at: instant(),
    expires_at: instant().nullable(),
    password: z.boolean().meta({ description: 'Whether the link asks for a password (never the password).' }),
    revoked_at: instant().nullable(),
  })
  .meta({ id: 'SharedLinkRow', description: 'A shared link as the list shows it: never its token.' });

export const SharedLinkMade = z
  .object({ token: z.string().meta({ description: 'Given once, here; kept nowhere (only its keyed hash).' }), link: SharedLinkRow })
  .meta({ id: 'SharedLinkMade' });

export const SiteList = z
  .object({
    sites: z.array(z.string()).meta({ description: 'The sites SITES declares, the first first.' }),
    all: z.boolean().meta({ description: 'Whether `site=*` reads several sites together.' }),
  })
  .meta({ id: 'SiteList' });

export const SharedLinks = z.object({ links: z.array(SharedLinkRow) }).meta({ id: 'SharedLinks' });

export const SharedLinkRevoked = z.object({ link: SharedLinkRow }).meta({ id: 'SharedLinkRevoked' });

export const SharedPeople = PeopleCount.extend({
  link: z.object({ site: z.string(), label: z.string(), filters: z.array(z.string()), days: z.string().nullable() }),
}).meta({ id: 'SharedPeople', description: "The count of a shared link's site, and what the link fixes." });

inputs.add(linkBodySchema, {
  id: 'SharedLinkBody',
  description: 'A read-only link to one site (or `*`) with, optionally, fixed filters and period, an expiry and a password.',
  fields: {
    filters: 'Fixed `dimension:value` filters (as the card takes them); the viewer cannot take them off.',
    days: 'A fixed period, as the card takes `days`.',
    password: 'Hashed with scrypt; the viewer sends it as `x-share-password`.',
  },
});

const schema = (id: string) => ({ $ref: `#/components/schemas/${id}` });
const json = (id: string, description: string) => ({ description, content: { 'application/json': { schema: schema(id) } } });
const OPERATOR = [{ operatorBearer: [] }, { operatorKey: [] }, { adminSession: [] }];
const operatorErrors = {
  '401': { $ref: '#/components/responses/OperatorUnauthorized' },
  '429': { $ref: '#/components/responses/TooManyAttempts' },
};
const shareHeaders = [
  { name: 'x-share-token', in: 'header', required: true, schema: { type: 'string' }, description: "The link's token." },
  {
    name: 'x-share-password',
    in: 'header',
    required: false,
    schema: { type: 'string' },
    description: "The link's password, when it has one.",
  },
];
const shareErrors = {
  '401': json(
    'Error',
    'No token, a wrong one or a wrong password (each counted against the address as a wrong key is), a revoked or expired link, or a password asked for.',
  ),
  '429': { $ref: '#/components/responses/TooManyAttempts' },
};

export const LINK_ROUTES: Route[] = [
  {
    method: 'get',
    path: '/api/admin/sites',
    operationId: 'admin-sites',
    summary: 'The sites counted',
    description: "The sites SITES declares, for the dashboard's switcher.",
    security: OPERATOR,
    responses: { '200': json('SiteList', 'The sites.'), ...operatorErrors },
  },
  {
    method: 'get',
    path: '/api/admin/links',
    operationId: 'admin-links-list',
    summary: 'The shared links',
    description: 'Every shared link, newest first, without its token.',
    security: OPERATOR,
    responses: { '200': json('SharedLinks', 'The links.'), ...operatorErrors },
  },
  {
    method: 'post',
    path: '/api/admin/links',
    operationId: 'admin-links-make',
    summary: 'Make a shared link',
    description: "A token of 192 bits from the system's cryptographic source, answered once and kept only as its keyed hash.",
    security: OPERATOR,
    requestBody: { required: true, content: { 'application/json': { schema: schema('SharedLinkBody') } } },
    responses: {
      '201': json('SharedLinkMade', 'Made.'),
      '400': { $ref: '#/components/responses/BadRequest' },
      ...operatorErrors,
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
    responses: { '200': json('SharedLinkRevoked', 'Revoked.'), '404': json('Error', 'No such link.'), ...operatorErrors },
  },
  {
    method: 'get',
    path: '/api/shared/activity',
    operationId: 'shared-activity',
    summary: 'The Activity card a shared link opens',
    description: "The link's site's card, read-only, with the link's fixed filters and period in place of any asked.",
    security: [],
    parameters: shareHeaders,
    responses: { '200': json('ActivityCard', 'The card.'), ...shareErrors },
  },
  {
    method: 'get',
    path: '/api/shared/people',
    operationId: 'shared-people',
    summary: 'The count a shared link opens',
    description: "The link's site's people all time and visits, and what the link fixes.",
    security: [],
    parameters: shareHeaders,
    responses: { '200': json('SharedPeople', 'The count.'), ...shareErrors },
  },
];

export const LINK_ANSWERS = [ActivityCard, SiteList, SharedLinks, SharedLinkMade, SharedLinkRevoked, SharedPeople];

export type SiteListAnswer = z.infer<typeof SiteList>;
export type SharedLinksAnswer = z.infer<typeof SharedLinks>;
export type SharedLinkMadeAnswer = z.infer<typeof SharedLinkMade>;
export type SharedPeopleAnswer = z.infer<typeof SharedPeople>;
