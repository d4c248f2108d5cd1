/** Nothing logged may hold an address, an agent or a query string. */
export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** One JSON line each on the console, which the Functions host collects. */
export function consoleLogger(): Logger {
  const line = (level: string, message: string, fields?: Record<string, unknown>) => JSON.stringify({ level, message, ...fields });
  return {
    info: (message, fields) => console.log(line('info', message, fields)),
    warn: (message, fields) => console.warn(line('warn', message, fields)),
    error: (message, fields) => console.error(line('error', message, fields)),
  };
}

export function memoryLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const keep = (level: string) => (message: string, fields?: Record<string, unknown>) => {
    lines.push(JSON.stringify({ level, message, ...fields }));
  };
  return { lines, info: keep('info'), warn: keep('warn'), error: keep('error') };
}
