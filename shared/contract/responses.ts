import { z } from 'zod';
import { ErrorEnvelope } from './common';
import { inputs } from './inputs';

// The pieces of the routes' answers, each written once, as OpenAPI has them.

type Json = Record<string, unknown>;

/** A schema of the document's components, by the name it is registered under. */
export function ref(schema: z.ZodType): { $ref: string } {
  const id = z.globalRegistry.get(schema)?.id ?? inputs.get(schema)?.id;
  if (id === undefined) throw new Error('the schema is not registered under a name');
  return { $ref: `#/components/schemas/${id}` };
}

/** One of the answers several routes share (RESPONSES in routes.ts). */
export const sharedAnswer = (name: string) => ({ $ref: `#/components/responses/${name}` });

/** A string, with its words where it needs them and anything more its schema says. */
export const text = (description?: string, schema: Json = {}): Json => ({
  ...(description === undefined ? {} : { description }),
  schema: { type: 'string', ...schema },
});

export const NO_STORE = { 'Cache-Control': text(undefined, { const: 'no-store' }) };

/** An answer with a JSON body, and its headers when it has any. */
export const json = (description: string, schema: z.ZodType, headers?: Json): Json => ({
  description,
  ...(headers === undefined ? {} : { headers }),
  content: { 'application/json': { schema: ref(schema) } },
});

/** An answer in the one error envelope. */
export const error = (description: string, headers?: Json): Json => json(description, ErrorEnvelope, headers);

/** The operator's key or its session. */
export const OPERATOR = [{ operatorBearer: [] }, { operatorKey: [] }, { adminSession: [] }];

/** What a route the operator's key or session opens may answer besides its own. */
export const OPERATOR_ERRORS = { '401': sharedAnswer('OperatorUnauthorized'), '429': sharedAnswer('TooManyAttempts') };

const OPERATOR_SET_COOKIE = {
  'Set-Cookie': text(
    "The operator cookie `headcount_operator` (a keyed hash of a fixed label; HttpOnly, Secure, SameSite=Lax, Path=/, 400 days), so this browser's own beacons are the site reading itself.",
  ),
};

/** An operator's read is never cached and sets the operator cookie. */
export const OPERATOR_HEADERS = { ...NO_STORE, ...OPERATOR_SET_COOKIE };

/** An operator's read answered. */
export const operatorJson = (description: string, schema: z.ZodType): Json => json(description, schema, OPERATOR_HEADERS);
