import type { HttpRequest, HttpResponseInit } from '@azure/functions';
import type { Answer } from './envelope';

/** Nothing host-specific. */
export interface IncomingRequest {
  method: string;
  header(name: string): string | null;
  query: URLSearchParams;
  params: Record<string, string>;
  text(): Promise<string>;
}

export function incoming(request: HttpRequest): IncomingRequest {
  return {
    method: request.method,
    header: (name) => request.headers.get(name),
    // The host's own query map keeps one value of a repeated parameter such as `filter`.
    query: new URL(request.url).searchParams,
    params: request.params,
    text: () => request.text(),
  };
}

export function response(answer: Answer): HttpResponseInit {
  const init: HttpResponseInit = { status: answer.status, headers: answer.headers, cookies: answer.cookies };
  if (answer.body === undefined) return init;
  if (typeof answer.body === 'string') return { ...init, body: answer.body };
  return { ...init, jsonBody: answer.body };
}

export function bytesResponse(answer: { status: number; headers: Record<string, string>; body?: Uint8Array }): HttpResponseInit {
  return { status: answer.status, headers: answer.headers, body: answer.body };
}
