import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

// A stranger's first five minutes: every link in the READMEs and docs/ leads somewhere in this repository (a file that
// a clone has, and a heading it has), never to a path outside it. Web addresses are left to the web.

const root = join(__dirname, '..', '..');
const documents = [
  'README.md',
  'local/README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** The anchor GitHub gives a heading: lowercase, code and punctuation watermarks gone, each space a hyphen, repeats numbered. */
function anchorsOf(text: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const line of text.replace(/```[\s\S]*?```/g, '').split('\n')) {
    const heading = /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const base = heading[1]!
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** Every Markdown link and image of a text (not inside code), as its target. */
function linksOf(text: string): string[] {
  const prose = text.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((match) => match[1]!);
}

describe('the README and docs link only inside the repository', () => {
  it.each(documents)('%s: every relative link is a file of the clone, and every anchor a heading of it', (document) => {
    const text = readFileSync(join(root, document), 'utf8');
    const broken: string[] = [];
    for (const target of linksOf(text)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
      const [path, anchor] = target.split('#') as [string, string | undefined];
      const file = path === '' ? join(root, document) : resolve(dirname(join(root, document)), decodeURIComponent(path));
      const inside = relative(root, file);
      if (inside.startsWith('..') || inside.split(sep)[0] === '..') {
        broken.push(`${target}: outside the repository`);
        continue;
      }
      if (!existsSync(file)) {
        broken.push(`${target}: no such file`);
        continue;
      }
      if (anchor !== undefined && file.endsWith('.md') && statSync(file).isFile() && !anchorsOf(readFileSync(file, 'utf8')).has(anchor)) {
        broken.push(`${target}: no such heading`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('finds the links it checks (the README links into docs/)', () => {
    expect(linksOf(readFileSync(join(root, 'README.md'), 'utf8')).filter((target) => target.startsWith('docs/')).length).toBeGreaterThan(
      10,
    );
  });
});
