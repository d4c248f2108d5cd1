import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { z } from 'zod';

const projectRoot = join(__dirname, '..', '..');

/** The port the Functions host listens on when nothing names another (`func start`'s, and the local host's). */
const DEFAULT_HOST_PORT = 7071;

const portNumber = z.number().int().min(0).max(65_535);

const localSettingsSchema = z.object({
  Values: z.record(z.string(), z.string(), { error: 'must be an object of strings' }),
  Host: z.object({ LocalHttpPort: portNumber.optional() }, { error: 'must be an object' }).optional(),
});

/** What a local settings file holds: its Values, the host's port it names (Core Tools' `Host.LocalHttpPort`), and its path. */
export interface LocalSettings {
  file: string;
  values: Record<string, string>;
  localHttpPort: number | undefined;
}

/**
 * The local settings file: HEADCOUNT_LOCAL_SETTINGS when set (a test's own file), else local.settings.json in `root`,
 * else the example beside it.
 */
export function localSettingsFile(env: Readonly<Record<string, string | undefined>> = process.env, root = projectRoot): string {
  if (env.HEADCOUNT_LOCAL_SETTINGS) return env.HEADCOUNT_LOCAL_SETTINGS;
  const own = join(root, 'local.settings.json');
  return existsSync(own) ? own : join(root, 'local.settings.example.json');
}

/** Reads a local settings file; a malformed one throws a message naming the file and the field. */
export function readLocalSettings(file = localSettingsFile()): LocalSettings {
  const parsed = localSettingsSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${file}: ${issue?.path.join('.') || '(file)'} ${issue?.message ?? 'is malformed'}`);
  }
  return { file, values: parsed.data.Values, localHttpPort: parsed.data.Host?.LocalHttpPort };
}

/** The local values: the settings file's Values, with the environment over them. */
export function localValues(settings = readLocalSettings()): Record<string, string | undefined> {
  return { ...settings.values, ...process.env };
}

/** A port and where it was read, in words a message can carry ("PORT", "local.settings.json's Host.LocalHttpPort"). */
export interface LocalPort {
  port: number;
  from: string;
}

const portText = z
  .string()
  .regex(/^\d{1,5}$/, 'must be a port number')
  .transform(Number)
  .pipe(z.number().max(65_535, 'must be a port number'));

/** What `--port <n>` or `--port=<n>` says, or undefined when it is not given. */
function portArgument(argv: readonly string[]): string | undefined {
  const at = argv.findIndex((arg) => arg === '--port' || arg.startsWith('--port='));
  if (at < 0) return undefined;
  return argv[at]!.includes('=') ? argv[at]!.slice('--port='.length) : (argv[at + 1] ?? '');
}

/**
 * The local host's port, read one way by `npm start`, `npm run host`, `npm run simulate`, `npm run import` and the
 * banner: `--port <n>`, else PORT (the environment, or the file's Values), else the file's `Host.LocalHttpPort` (as
 * `func start` reads it), else 7071. A value that is no port throws a message naming where it was read.
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

/** The port a command run with no `--port` and no PORT of its own finds: the one a second terminal's `npm run simulate` reaches. */
export function plainPort(settings: LocalSettings): number {
  return localPort([], settings.values, settings).port;
}
