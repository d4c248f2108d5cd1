import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// The README is one screen that a newcomer reads whole, and CI runs what it tells them to run.

const root = join(__dirname, '..', '..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const ci = readFileSync(join(root, '.ci', 'run'), 'utf8');

/** The commands of the first shell block under a heading, comments dropped. */
function commandsUnder(heading: string): string[] {
  const section = readme.slice(readme.indexOf(`\n${heading}\n`));
  const block = /```sh\n([\s\S]*?)```/.exec(section)![1]!;
  return block
    .split('\n')
    .map((line) => line.replace(/#.*$/, '').trim())
    .filter(Boolean);
}

describe('the README', () => {
  it('is one screen: at most 100 lines', () => {
    expect(readme.trimEnd().split('\n').length).toBeLessThanOrEqual(100);
  });

  it('gives the two commands, and CI runs the test one on a clean install from the lock', () => {
    expect(commandsUnder('## Two commands')).toEqual(['npm install && npm start', 'npm install && npm test']);
    const run = ci.split('\n').filter((line) => !line.trim().startsWith('#'));
    expect(run).toContain('npm ci --no-audit --no-fund');
    expect(run.some((line) => /(^|\s)npm test(\s|$)/.test(line))).toBe(true);
  });
});
