import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The project's root folder. */
export const ROOT = join(__dirname, '..', '..');

/** A file of the project as text. */
export function projectText(path: string): string {
  return readFileSync(join(ROOT, path), 'utf8');
}

/** A Bicep file under infra/ as text, with its comments taken out so a comment can never satisfy a test. */
export function bicep(path: string): string {
  return (
    projectText(join('infra', path))
      .split('\n')
      // A comment starts a line or follows a space; `https://` inside a string does neither.
      .map((line) => line.replace(/(^|\s)\/\/.*$/, ''))
      .join('\n')
  );
}

/** The text between the brace that ends `header`'s line and the brace that closes it. */
export function block(text: string, header: RegExp): string {
  const found = header.exec(text);
  if (!found) throw new Error(`no block ${header} in the Bicep text`);
  const open = text.indexOf('{', found.index + found[0].length - 1);
  let depth = 0;
  for (let at = open; at < text.length; at += 1) {
    if (text[at] === '{') depth += 1;
    if (text[at] === '}' && --depth === 0) return text.slice(open + 1, at);
  }
  throw new Error(`block ${header} is not closed`);
}

/** The `name: value` entries at the top level of a block's body (nested objects and arrays are kept as text). */
export function entries(body: string): Map<string, string> {
  const found = new Map<string, string>();
  let depth = 0;
  let current: string | undefined;
  for (const line of body.split('\n')) {
    const entry = depth === 0 ? /^\s*'?([A-Za-z_][\w-]*)'?\s*:\s*(.*)$/.exec(line) : null;
    if (entry) {
      current = entry[1]!;
      found.set(current, entry[2]!.trim());
    } else if (current !== undefined && depth > 0) {
      found.set(current, `${found.get(current)}\n${line.trim()}`);
    }
    for (const char of line) {
      if (char === '{' || char === '[') depth += 1;
      if (char === '}' || char === ']') depth -= 1;
    }
  }
  return found;
}

/** A declared `param`: its type, its default (as Bicep text) if any, and its decorators. */
export interface Param {
  type: string;
  fallback: string | undefined;
  decorators: string[];
}

/** Every `param` of a Bicep file, with the decorators written on the lines above it. */
export function params(text: string): Map<string, Param> {
  const found = new Map<string, Param>();
  let decorators: string[] = [];
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (trimmed.startsWith('@')) decorators.push(trimmed);
    const param = /^param\s+(\w+)\s+(\w+)(?:\s*=\s*(.+))?$/.exec(trimmed);
    if (param) {
      found.set(param[1]!, { type: param[2]!, fallback: param[3]?.trim(), decorators });
      decorators = [];
    } else if (!trimmed.startsWith('@') && trimmed !== '') {
      decorators = [];
    }
  }
  return found;
}

/** A `var`'s value as Bicep text. */
export function variable(text: string, name: string): string {
  const found = new RegExp(`^var\\s+${name}\\s*=\\s*(.+)$`, 'm').exec(text);
  if (!found) throw new Error(`no var ${name}`);
  return found[1]!.trim();
}

/** The names of a file's `output`s. */
export function outputs(text: string): Set<string> {
  return new Set([...text.matchAll(/^output\s+(\w+)\s/gm)].map((found) => found[1]!));
}

/** A Bicep string literal's value, or undefined when the text is not a plain literal (an expression, interpolation). */
export function literal(text: string): string | undefined {
  const found = /^'((?:[^'\\$]|\\.|\$(?!\{))*)'$/.exec(text.trim());
  return found ? found[1]!.replace(/\\'/g, "'") : undefined;
}

/** One `module` of main.bicep: its symbol, the file it points at, and the params it passes. */
export interface ModuleUse {
  symbol: string;
  file: string;
  args: Map<string, string>;
}

/** Every `module` main.bicep uses. */
export function modules(main: string): ModuleUse[] {
  return [...main.matchAll(/^module\s+(\w+)\s+'([^']+)'\s*=\s*\{/gm)].map((found) => {
    const body = block(main, new RegExp(`^module\\s+${found[1]}\\s+'[^']+'\\s*=\\s*\\{`, 'm'));
    const args = entries(block(body, /^\s*params\s*:\s*\{/m));
    const file = found[2]!;
    if (!existsSync(join(ROOT, 'infra', file))) throw new Error(`module ${found[1]} points at infra/${file}, which does not exist`);
    return { symbol: found[1]!, file, args };
  });
}
