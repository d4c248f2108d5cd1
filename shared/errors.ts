/** What went wrong, in one line fit for a log or a result: an error's first message line, or the value as text. */
export function errorLine(error: unknown): string {
  return error instanceof Error ? (error.message.split('\n', 1)[0] ?? '') : String(error);
}
