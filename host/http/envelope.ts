import type { Failure } from '../../shared/core/result';
import type { AnswerCookie } from '../../shared/core/cookie';

export type { AnswerCookie };

/** A plain answer a function maps to its host's response type. */
export interface Answer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  cookies?: AnswerCookie[];
}

/** The error envelope: `{"error": {"code", "message", "issues"?}}`. */
export function errorAnswer(failure: Failure, headers?: Record<string, string>): Answer {
  const { status, code, message, issues } = failure;
  return { status, headers, body: { error: issues && issues.length > 0 ? { code, message, issues } : { code, message } } };
}
