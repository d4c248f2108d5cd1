import type { z } from 'zod';

/** Named by its path in the request: `hits.3.at`. */
export interface FieldIssue {
  path: string;
  message: string;
}

/** An expected failure: its status and the one error envelope every endpoint answers with. */
export interface Failure {
  status: 400 | 401 | 403 | 404 | 405 | 412 | 413 | 415 | 428 | 429 | 503;
  code: string;
  message: string;
  issues?: FieldIssue[];
  /** Whole seconds, answered as `Retry-After`. */
  retryAfter?: number;
}

export type Result<T> = { ok: true; value: T } | { ok: false; failure: Failure };

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const fail = <T = never>(failure: Failure): Result<T> => ({ ok: false, failure });

interface SchemaIssue {
  code?: string;
  path: readonly PropertyKey[];
  message: string;
  keys?: readonly string[];
}

/** A field that is not allowed is named itself. */
export function fieldIssues(issues: readonly SchemaIssue[]): FieldIssue[] {
  return issues.flatMap((issue) => {
    const at = issue.path.map(String);
    if (issue.code === 'unrecognized_keys' && issue.keys) {
      return issue.keys.map((key) => ({ path: [...at, key].join('.'), message: 'is not an allowed field' }));
    }
    return [{ path: at.join('.') || '(body)', message: issue.message }];
  });
}

/** Names the first bad field and lists them all. */
export function badRequest(issues: FieldIssue[]): Failure {
  const first = issues[0];
  return {
    status: 400,
    code: 'invalid_request',
    message: first ? `${first.path}: ${first.message}` : 'the request is invalid',
    issues,
  };
}

/** A value read with a schema, or a 400 naming every bad field (prefixed with where the value sits). */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown, prefix = ''): Result<z.infer<S>> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return ok(parsed.data);
  const issues = fieldIssues(parsed.error.issues).map((issue) => ({
    ...issue,
    path: prefix ? (issue.path === '(body)' ? prefix : `${prefix}.${issue.path}`) : issue.path,
  }));
  return fail(badRequest(issues));
}
