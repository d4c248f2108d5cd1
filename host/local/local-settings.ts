import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

const projectRoot = join(__dirname, '..', '..');

const localSettingsSchema = z.object({ Values: z.record(z.string(), z.string()) });

/** The local values: local.settings.json when there is one, else the example, with the environment over both. */
export function localValues(): Record<string, string | undefined> {
  const own = join(projectRoot, 'local.settings.json');
  const file = existsSync(own) ? own : join(projectRoot, 'local.settings.example.json');
  const parsed = localSettingsSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  if (!parsed.success) throw new Error(`${file}: Values must be an object of strings`);
  return { ...parsed.data.Values, ...process.env };
}

const portText = z
  .string()
  .regex(/^\d{1,5}$/, 'must be a port number')
  .transform(Number)
  .pipe(z.number().min(0).max(65_535, 'must be a port number'));

/** The host's port: `--port <n>` (or `--port=<n>`), else PORT or FUNCTIONS_HTTPWORKER_PORT, else 7071. */
export function hostPort(argv: readonly string[], values: Record<string, string | undefined>): number {
  const at = argv.findIndex((arg) => arg === '--port' || arg.startsWith('--port='));
  const text =
    at < 0 ? (values.PORT ?? values.FUNCTIONS_HTTPWORKER_PORT ?? '7071') : argv[at]!.includes('=') ? argv[at]!.split('=')[1] : argv[at + 1];
  const parsed = portText.safeParse(text ?? '');
  if (!parsed.success)
    throw new Error(`the host's port ${JSON.stringify(text ?? '')} ${parsed.error.issues[0]?.message ?? 'is not a port'}`);
  return parsed.data;
}
