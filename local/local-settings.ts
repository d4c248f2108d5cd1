import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { z } from 'zod';

const projectRoot = join(__dirname, '..');

/** `func start`'s, and the local host's. */
const DEFAULT_HOST_PORT = 7071;

const portNumber = z.number().int().min(0).max(65_535);

const localSettingsSchema = z.object({
  Values: z.record(z.string(), z.string(), { error: 'must be an object of strings' }),
  Host: z.object({ LocalHttpPort: portNumber.optional() }, { error: 'must be an object' }).optional(),
});

/** The port is Core Tools' `Host.LocalHttpPort`. */
export interface LocalSettings {
  file: string;
  values: Record<string, string>;
  localHttpPort: number | undefined;
}

/** HEADCOUNT_LOCAL_SETTINGS, for a test's own file; else local.settings.json, else the example. */
export function localSettingsFile(env: Readonly<Record<string, string | undefined>> = process.env, root = projectRoot): string {
  if (env.HEADCOUNT_LOCAL_SETTINGS) return env.HEADCOUNT_LOCAL_SETTINGS;
  const own = join(root, 'local.settings.json');
  return existsSync(own) ? own : join(root, 'local.settings.example.json');
}

/** A malformed file throws a message naming the file and the field. */
export function readLocalSettings(file = localSettingsFile()): LocalSettings {
  const parsed = localSettingsSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${file}: ${issue?.path.join('.') || '(file)'} ${issue?.message ?? 'is malformed'}`);
  }
  return { file, values: parsed.data.Values, localHttpPort: parsed.data.Host?.LocalHttpPort };
}

/** The environment wins over the file. */
export function localValues(settings = readLocalSettings()): Record<string, string | undefined> {
  return { ...settings.values, ...process.env };
}

/** Where it was read, in words a message can carry: "PORT". */
export interface LocalPort {
  port: number;
  from: string;
}

const portText = z
  .string()
  .regex(/^\d{1,5}$/, 'must be a port number')
  .transform(Number)
  .pipe(z.number().max(65_535, 'must be a port number'));

function portArgument(argv: readonly string[]): string | undefined {
  const at = argv.findIndex((arg) => arg === '--port' || arg.startsWith('--port='));
  if (at < 0) return undefined;
  return argv[at]!.includes('=') ? argv[at]!.slice('--port='.length) : (argv[at + 1] ?? '');
}

/**
 * Read one way by `npm start`, `npm run host`, `npm run simulate`, `npm run import` and the banner.
 * `--port`, else PORT, else the file's `Host.LocalHttpPort`, else 7071.
 */
export function localPort(
  argv: readonly string[],
  values: Readonly<Record<string, string | undefined>>,
  settings: LocalSettings,
): LocalPort {
  const given = portArgument(argv);
  if (given !== undefined) return checkedPort(given, '--port');
  if (values.PORT !== undefined && values.PORT !== '') return checkedPort(values.PORT, 'PORT');
  if (settings.localHttpPort !== undefined)
    return { port: settings.localHttpPort, from: `${basename(settings.file)}'s Host.LocalHttpPort` };
  return { port: DEFAULT_HOST_PORT, from: 'the default port' };
}

function checkedPort(text: string, from: string): LocalPort {
  const parsed = portText.safeParse(text);
  if (!parsed.success) throw new Error(`${from}: ${JSON.stringify(text)} ${parsed.error.issues[0]?.message ?? 'is not a port'}`);
  return { port: parsed.data, from };
}

/** What a second terminal's `npm run simulate` reaches. */
export function plainPort(settings: LocalSettings): number {
  return localPort([], settings.values, settings).port;
}
