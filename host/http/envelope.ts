import type { Failure } from '../../shared/core/result';
import type { AnswerCookie } from '../../shared/core/cookie';

export type { AnswerCookie };

export interface Answer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  cookies?: AnswerCookie[];
}

export function errorAnswer(failure: Failure, headers?: Record<string, string>): Answer {
  const { status, code, message, issues, retryAfter } = failure;
  const after = retryAfter === undefined ? headers : { ...headers, 'retry-after': String(retryAfter) };
  return { status, headers: after, body: { error: issues && issues.length > 0 ? { code, message, issues } : { code, message } } };
}
