import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// `npm install` on npm 11 warns about every installed package whose install script no allowScripts policy covers.
// docs/contributing.md explains each one (what its script does, and why the project works without it), so a newcomer
// reads why the warning is safe here; a new dependency with an install script fails this until the page says why it is.

const root = join(__dirname, '..', '..');
const page = readFileSync(join(root, 'docs', 'contributing.md'), 'utf8');
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { hasInstallScript?: boolean }>;
};
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { allowScripts?: Record<string, boolean> };

describe("docs/contributing.md explains npm install's allowScripts warnings", () => {
  it('names every package with an install script that no allowScripts policy covers, and says what its script does', () => {
    const scripted = Object.entries(lock.packages)
      .filter(([path, entry]) => path !== '' && entry.hasInstallScript === true)
      .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length))
      .filter((name) => pkg.allowScripts?.[name] === undefined);
    expect(scripted).toEqual(expect.arrayContaining(['esbuild']));
    const paragraph = page.split('\n\n').find((text) => text.includes('not yet covered by allowScripts'));
    expect(paragraph, 'a paragraph quoting the warning').toBeDefined();
    for (const name of scripted) {
      expect(paragraph).toContain(`\`${name}\``);
      expect(paragraph).toMatch(new RegExp(`${name}'s \\([^)]*\\)[^.]*(checks|prints)`));
    }
  });
});
