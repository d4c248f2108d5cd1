import type { Failure } from '../core/result';

/** A plain answer a function maps to its host's response type. */
export interface Answer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  cookies?: AnswerCookie[];
}

/** A cookie to set, in the shape the Functions host takes. */
export interface AnswerCookie {
  name: string;
  value: string;
  maxAge?: number;
  httpOnly?: boolean;
  secure?: boolean;
  sameSite?: 'Strict' | 'Lax' | 'None';
  path?: string;
}

/** The error envelope: `{"error": {"code", "message", "issues"?}}`. */
export function errorAnswer(failure: Failure, headers?: Record<string, string>): Answer {
  const { status, code, message, issues } = failure;
  return { status, headers, body: { error: issues && issues.length > 0 ? { code, message, issues } : { code, message } } };
}
