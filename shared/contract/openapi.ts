import { z } from 'zod';
import { inputs } from './inputs';
import { INFO, PARAMETERS, RESPONSES, ROUTES, SECURITY_SCHEMES } from './routes';
import { type Route } from './route';

type Json = Record<string, unknown>;

const uri = (id: string) => `#/components/schemas/${id}`;

/** Drops $schema, $id, the regex zod writes beside a format, and the 2^53 bound on a whole number. */
function tidy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(tidy);
  if (value === null || typeof value !== 'object') return value;
  const node = value as Json;
  const formatted = node.format === 'date' || node.format === 'date-time';
  return Object.fromEntries(
    Object.entries(node)
      .filter(([key]) => key !== '$schema' && key !== '$id' && !(key === 'pattern' && formatted))
      .filter(([key, v]) => !(key === 'maximum' && v === Number.MAX_SAFE_INTEGER) && !(key === 'minimum' && v === Number.MIN_SAFE_INTEGER))
      .map(([key, v]) => [key, tidy(v)]),
  );
}

/** The request bodies' schemas, as their parsers read them, each with the words the notes lay over its fields. */
function inputSchemas(): Record<string, Json> {
  const { schemas } = z.toJSONSchema(inputs, { io: 'input', uri, metadata: inputs }) as { schemas: Record<string, Json> };
  return Object.fromEntries(
    Object.entries(schemas).map(([id, schema]) => {
      const { fields, ...plain } = schema as Json & { fields?: Record<string, string> };
      const properties = (plain.properties ?? {}) as Record<string, Json>;
      for (const [field, description] of Object.entries(fields ?? {})) {
        if (!(field in properties)) throw new Error(`${id} has no field ${field} to describe`);
        properties[field] = { ...properties[field], description };
      }
      return [id, tidy(plain) as Json];
    }),
  );
}

/** The answers' schemas (shared/contract), as the app sends them. */
function answerSchemas(): Record<string, Json> {
  const { schemas } = z.toJSONSchema(z.globalRegistry, { io: 'output', uri }) as { schemas: Record<string, Json> };
  return tidy(schemas) as Record<string, Json>;
}

/** A route's query parameters, from the parser it reads its query with, each with its words. */
function queryParameters(route: Route): Json[] {
  if (!route.query) return [];
  const { describe, schema } = route.query;
  const json = tidy(z.toJSONSchema(schema, { io: 'input' })) as { properties: Record<string, Json>; required?: string[] };
  const names = Object.keys(json.properties);
  const undescribed = names.filter((name) => !describe[name]);
  const unknown = Object.keys(describe).filter((name) => !names.includes(name));
  if (undescribed.length || unknown.length)
    throw new Error(
      `${route.method} ${route.path}: parameters without words (${undescribed.join(', ')}) or words without a parameter (${unknown.join(', ')})`,
    );
  return names.map((name) => {
    const parameter = json.properties[name]!;
    return {
      name,
      in: 'query',
      required: json.required?.includes(name) ?? false,
      ...(parameter.type === 'array' ? { style: 'form', explode: true } : {}),
      schema: parameter,
      description: describe[name],
    };
  });
}

function operation(route: Route): Json {
  const parameters = [...queryParameters(route), ...(route.parameters ?? [])];
  return {
    operationId: route.operationId,
    summary: route.summary,
    description: route.description,
    ...(route.security ? { security: route.security } : {}),
    ...(parameters.length ? { parameters } : {}),
    ...(route.requestBody ? { requestBody: route.requestBody } : {}),
    responses: route.responses,
  };
}

/** docs/openapi.json: every route, its query and body as the app parses them, and its answers as shared/contract declares them. */
export function openApiDocument(): Json {
  const paths: Record<string, Json> = {};
  for (const route of ROUTES) paths[route.path] = { ...paths[route.path], [route.method]: operation(route) };
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    ...INFO,
    security: [],
    paths,
    components: {
      // By name: the registries' order is the order modules were first imported in, which differs between processes.
      schemas: Object.fromEntries(
        Object.entries({ ...inputSchemas(), ...answerSchemas() }).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
      ),
      responses: RESPONSES,
      parameters: PARAMETERS,
      securitySchemes: SECURITY_SCHEMES,
    },
  };
}

export const openApiText = () => `${JSON.stringify(openApiDocument(), null, 2)}\n`;
