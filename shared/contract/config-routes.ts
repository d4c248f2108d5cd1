import { ConfigAnswer, configBodySchema } from './config';
import { inputs } from './inputs';
import { error, json, NO_STORE, OPERATOR, OPERATOR_ERRORS, ref, sharedAnswer, text } from './responses';
import type { Route } from './route';

// The configuration's routes: read it with its version, replace the version read.

inputs.add(configBodySchema, {
  id: 'ConfigBody',
  description: 'The whole configuration, as read, with the changes made: every list is replaced.',
  fields: {
    sites: 'Each site: its name (kept data is keyed by it, so a renamed site is a new one), its origins and its IANA time zone.',
    goals: 'Each goal: an `event`, or `pages` where `*` stands for any characters; `site` limits it to one site.',
    funnels: 'Each funnel: 2 to 8 ordered steps, a step reached by any of its pages or events.',
    segments: 'Each segment: a name and the `dimension:value` filters that `filter=segment:<name>` reads.',
    annotations: 'Each annotation: a day and a note of at most 140 characters, shown on the chart of a period that holds the day.',
  },
});

const ETAG = { ETag: text('The version of the configuration answered: send it as `If-Match` to change it.'), ...NO_STORE };

export const CONFIG_ROUTES: Route[] = [
  {
    method: 'get',
    path: '/api/admin/config',
    operationId: 'admin-config-read',
    summary: 'The configuration',
    description:
      'Sites, goals, funnels, segments and annotations: one document a deployment, seeded from SITES, ALLOWED_ORIGINS and GOALS on first start, the settings only its defaults after. Each instance rereads it within 60 seconds of a change.',
    security: OPERATOR,
    responses: { '200': json('The configuration.', ConfigAnswer, ETAG), ...OPERATOR_ERRORS },
  },
  {
    method: 'put',
    path: '/api/admin/config',
    operationId: 'admin-config-replace',
    summary: 'Change the configuration',
    description:
      'Replaces the version named by `If-Match`, so of two editors who read the same version, the second to save is told the first changed it (412) and loses nothing of the first. A goal or funnel new or changed counts from today and is counted back over the days whose visitor-days are kept.',
    security: OPERATOR,
    parameters: [
      { name: 'If-Match', in: 'header', required: true, schema: { type: 'string' }, description: 'The `ETag` of the configuration read.' },
    ],
    requestBody: { required: true, content: { 'application/json': { schema: ref(configBodySchema) } } },
    responses: {
      '200': json('Changed: the configuration now.', ConfigAnswer, ETAG),
      '400': sharedAnswer('BadRequest'),
      '412': error('`stale`: the configuration changed since the version named was read; read it again.'),
      '428': error('`precondition_required`: no `If-Match`.'),
      ...OPERATOR_ERRORS,
    },
  },
];
