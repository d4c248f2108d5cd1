/** One line for a log: the first message line, or the name and code when an error has no message. */
export function errorLine(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const line = error.message.split('\n', 1)[0] ?? '';
  if (line !== '') return line;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' || typeof code === 'number' ? `${error.name} ${code}` : error.name;
}
