// The dashboard's files made from the code, not by hand: its dimensions from the one table (public/admin-dimensions.js)
// and the modules it loads, followed from public/admin.js (shared/contract/dashboard-modules.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DIMENSION_TABLE, EXPORTED } from '../shared/core/dimensions';

export interface MadeFile {
  file: string;
  text: string;
}

const quoted = (value: string) => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/** What the dashboard needs of each dimension: no more, so a row's other fields stay the server's. */
function dimensionsModule(): string {
  const rows = DIMENSION_TABLE.map((row) => {
    const card = 'card' in row ? `, card: ${quoted(row.card)}` : '';
    return `  { filter: ${quoted(row.filter)}, label: ${quoted(row.label)}, words: ${quoted(row.words)}, tab: ${quoted(row.tab)}${card} },`;
  });
  return [
    '// @ts-check',
    '// Made by `npm run dashboard` from shared/core/dimensions.ts, so do not edit: each dimension a filter can name, as the',
    "// dashboard says it, the tab that lists it, and for one counted by name its list in the card's `devices`.",
    '',
    "/** @typedef {import('../shared/contract/activity').FilterDimension} Dimension */",
    "/** @typedef {{ filter: Dimension, label: string, words: import('../shared/core/dimensions').ValueWords, tab: string, card?: import('../shared/core/dimensions').NamesCard }} DimensionRow */",
    '',
    '/** @type {ReadonlyArray<DimensionRow>} */',
    'export const DIMENSION_ROWS = [',
    ...rows,
    '];',
    '',
    "/** The export's lists, in their columns' order. */",
    `export const EXPORT_LISTS = [${EXPORTED.map((row) => quoted(row.export.column)).join(', ')}];`,
    '',
  ].join('\n');
}

/** Every module admin.js reaches through its imports, admin.js first, the rest by name. */
export function dashboardModules(root: string): string[] {
  const found = new Set<string>(['admin.js']);
  const queue = ['admin.js'];
  for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
    const text = readFileSync(join(root, 'public', name), 'utf8');
    for (const [, imported] of text.matchAll(/ from '\.\/([^']+\.js)';$/gm))
      if (!found.has(imported!)) {
        found.add(imported!);
        queue.push(imported!);
      }
  }
  return ['admin.js', ...[...found].filter((name) => name !== 'admin.js').sort()];
}

function modulesModule(root: string): string {
  return [
    '// Made by `npm run dashboard` from the imports of public/admin.js, so do not edit: every module the dashboard loads.',
    'export const DASHBOARD_MODULES = [',
    ...dashboardModules(root).map((name) => `  ${quoted(name)},`),
    '] as const;',
    '',
  ].join('\n');
}

export const madeFiles = (root: string): MadeFile[] => [
  { file: 'public/admin-dimensions.js', text: dimensionsModule() },
  { file: 'shared/contract/dashboard-modules.ts', text: modulesModule(root) },
];
