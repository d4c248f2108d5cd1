import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

/** Where the API description lives. */
export const OPENAPI_FILE = join(__dirname, '..', '..', 'docs', 'openapi.json');

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

type Json = Record<string, any>;

/** The document as parsed JSON. */
export const openApiDocument = (): Json => JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')) as Json;

/** Every operation the document describes, as `METHOD /path/{template}`. */
export function documentedOperations(doc: Json): string[] {
  return Object.entries(doc.paths as Json).flatMap(([path, item]) =>
    HTTP_METHODS.filter((method) => method in (item as Json)).map((method) => `${method.toUpperCase()} ${path}`),
  );
}

/** One request a test made and the answer it got, as the validator reads them. */
export interface Exchange {
  method: string;
  url: string;
  requestType?: string;
  requestBody?: string;
  status: number;
  headers: Headers;
  body: string;
}

const bareType = (type: string | null | undefined) => (type ?? '').split(';', 1)[0]!.trim().toLowerCase();

/**
 * Validates exchanges against the document: the path and method are an operation of it, the status is one of its
 * responses, the answer's content type is one it lists and a JSON body holds to its schema (JSON Schema 2020-12, as
 * OpenAPI 3.1 uses, with ajv and ajv-formats), a response with no content has no body, and a 2xx answer's request body
 * held to the request schema. Answers the problems found, one line each; none is a pass.
 */
export function exchangeValidator(doc: Json) {
  // zod writes a nullable type as a list of types (`["string", "null"]`), which JSON Schema 2020-12 allows.
  const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
  addFormats(ajv);
  // The components' schemas under an id of their own, so each inline schema can be compiled with its refs pointing there.
  const id = 'headcount-openapi';
  const rewrite = (value: unknown): unknown => JSON.parse(JSON.stringify(value).replaceAll('"#/components/schemas/', `"${id}#/$defs/`));
  ajv.addSchema({ $id: id, $defs: rewrite(doc.components.schemas) as Json });
  const compiled = new Map<string, ValidateFunction>();
  const schemaAt = (where: string, schema: unknown) => {
    if (!compiled.has(where)) compiled.set(where, ajv.compile(rewrite(schema) as Json));
    return compiled.get(where)!;
  };
  const deref = (value: Json): Json => {
    if (typeof value.$ref !== 'string') return value;
    const target = value.$ref
      .slice(2)
      .split('/')
      .reduce((at: Json, key) => at[key.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
    return deref(target);
  };
  const templates = Object.keys(doc.paths as Json).map((template) => ({
    template,
    pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
  }));
  const check = (validate: ValidateFunction, value: unknown, what: string) =>
    validate(value) ? [] : [`${what}: ${ajv.errorsText(validate.errors, { dataVar: 'body' })}`];

  return (exchange: Exchange): string[] => {
    const path = new URL(exchange.url).pathname;
    const name = `${exchange.method} ${path} → ${exchange.status}`;
    const found = templates.find(({ pattern }) => pattern.test(path));
    const operation = found && (doc.paths[found.template] as Json)[exchange.method.toLowerCase()];
    if (!found || !operation) return [`${name}: no such operation in the document`];
    const where = `${exchange.method} ${found.template}`;
    const documented = operation.responses[String(exchange.status)];
    if (!documented) return [`${name}: status not documented for ${where}`];
    const response = deref(documented);
    const problems: string[] = [];
    const type = bareType(exchange.headers.get('content-type'));
    if (!response.content) {
      if (exchange.body.length > 0) problems.push(`${name}: the document says no content, the answer has ${exchange.body.length} bytes`);
    } else if (!(type in response.content)) {
      problems.push(`${name}: content type ${type || '(none)'} is not one of ${Object.keys(response.content).join(', ')}`);
    } else if (type === 'application/json') {
      problems.push(...check(schemaAt(`${where} ${exchange.status}`, response.content[type].schema), JSON.parse(exchange.body), name));
    }
    for (const [header, spec] of Object.entries((response.headers ?? {}) as Json)) {
      const value = exchange.headers.get(header);
      if (value !== null && header.toLowerCase() !== 'set-cookie')
        problems.push(...check(schemaAt(`${where} ${exchange.status} ${header}`, deref(spec).schema), value, `${name} header ${header}`));
    }
    if (exchange.status >= 200 && exchange.status < 300 && exchange.requestBody !== undefined && operation.requestBody) {
      const content = deref(operation.requestBody).content as Json;
      const sent = bareType(exchange.requestType);
      if (!(sent in content)) problems.push(`${name}: request content type ${sent} is not one of ${Object.keys(content).join(', ')}`);
      // A beacon's text/plain body is the same JSON object as text, as sendBeacon sends it.
      const schema = sent === 'text/plain' ? content['application/json']?.schema : content[sent]?.schema;
      if (schema) problems.push(...check(schemaAt(`${where} request`, schema), JSON.parse(exchange.requestBody), `${name} request`));
    }
    return problems;
  };
}
