import type { IncomingRequest } from './request';
import { badRequest, fail, ok, type Result } from '../../shared/core/result';

export function mediaType(request: IncomingRequest): string {
  return (request.header('content-type') ?? '').split(';', 1)[0]!.trim().toLowerCase();
}

/** The bound is checked on Content-Length before reading, and again on the bytes read. */
export async function readJsonBody(request: IncomingRequest, maxBytes: number, mediaTypes: readonly string[]): Promise<Result<unknown>> {
  const type = mediaType(request);
  if (!mediaTypes.includes(type)) {
    return fail({ status: 415, code: 'unsupported_media_type', message: `content-type must be ${mediaTypes.join(' or ')}` });
  }
  const limit = `must be at most ${maxBytes} bytes (${maxBytes / 1024} KB)`;
  const tooLarge = fail({
    status: 413,
    code: 'payload_too_large',
    message: `(body): ${limit}`,
    issues: [{ path: '(body)', message: limit }],
  });
  const declared = Number(request.header('content-length') ?? '0');
  if (Number.isFinite(declared) && declared > maxBytes) return tooLarge;
  const text = await request.text();
  if (Buffer.byteLength(text, 'utf8') > maxBytes) return tooLarge;
  try {
    return ok(JSON.parse(text));
  } catch {
    return fail(badRequest([{ path: '(body)', message: 'is not valid JSON' }]));
  }
}
