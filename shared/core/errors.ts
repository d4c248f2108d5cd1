/**
 * What went wrong, in one line fit for a log or a result: an error's first message line, or, for an error without a
 * message (an aborted call, a socket closed), its name and code; any other value as text.
 */
export function errorLine(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const line = error.message.split('\n', 1)[0] ?? '';
  if (line !== '') return line;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' || typeof code === 'number' ? `${error.name} ${code}` : error.name;
}
