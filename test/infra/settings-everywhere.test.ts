import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { readSettings } from '../../host/settings';
import { AZURE_SHAPE, settingNames } from './azure-shape';
import { params, bicep, projectText } from './bicep';
import { apiArgs, appSettings, deployedEnvironment } from './deployed';

// Every setting the schema knows: a new one fails here until it is carried to each place a setting is listed.
const ALL = settingNames();
const main = bicep('main.bicep');
const parameterFile = z
  .object({ parameters: z.record(z.string(), z.object({ value: z.string() })) })
  .parse(JSON.parse(projectText('infra/main.parameters.json'))).parameters;
const LOCAL = z.object({ Values: z.record(z.string(), z.string()) }).parse(JSON.parse(projectText('local.settings.example.json'))).Values;

// The other shape's half of each pair the schema refuses to mix: a connection string and a Cosmos key are the local
// shape; the identity settings are the Azure shape. Each place leaves out only these, and the tests prove the mix is refused.
const LOCAL_ONLY = ['AzureWebJobsStorage', 'COSMOS_KEY'];
const AZURE_ONLY = [
  'AzureWebJobsStorage__queueServiceUri',
  'AzureWebJobsStorage__blobServiceUri',
  'AzureWebJobsStorage__credential',
  'AzureWebJobsStorage__clientId',
  'COSMOS_CLIENT_ID',
  'EMAIL_ENDPOINT',
  'EMAIL_SENDER',
];
// The Functions host's own setting, which the app's schema does not read.
const HOST_ONLY = ['FUNCTIONS_WORKER_RUNTIME'];

// The schema's value for each setting the Azure shape leaves unset: its default.
const defaults: Record<string, unknown> = (() => {
  const read = readSettings(AZURE_SHAPE);
  if (!read.ok) throw new Error(JSON.stringify(read.problems));
  return read.settings;
})();

// The rows of the first Markdown table under a heading of a Markdown file, as cells (a `\|` inside a cell is a pipe, not a border).
function tableRows(file: string, heading: string): string[][] {
  const text = projectText(file);
  const start = text.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`${file} has no ${heading}`);
  const section = text.slice(start + heading.length + 2).split(/\n#{1,3} /)[0]!;
  const lines = section.split('\n');
  const first = lines.findIndex((line) => line.startsWith('|'));
  const after = lines.findIndex((line, index) => index > first && !line.startsWith('|'));
  return lines.slice(first + 2, after < 0 ? undefined : after).map((line) =>
    line
      .slice(1, -1)
      .split(/(?<!\\)\|/)
      .map((cell) => cell.trim()),
  );
}

// The `code` spans of a table cell, with escaped pipes read as pipes.
const codes = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((found) => found[1]!.replace(/\\\|/g, '|'));

// The settings a table documents (the code spans of its setting column that the schema knows) and its default column.
function documented(file: string, heading: string, settingColumn: number, defaultColumn: number) {
  return tableRows(file, heading)
    .map((cells) => ({ names: codes(cells[settingColumn]!).filter((name) => ALL.includes(name)), defaults: codes(cells[defaultColumn]!) }))
    .filter((row) => row.names.length > 0);
}

// What a default the docs state means to the schema, so it can be compared with the schema's own default.
function meaning(name: string, text: string): unknown {
  const read = readSettings({ ...AZURE_SHAPE, [name]: text });
  if (!read.ok) throw new Error(`The documented default for ${name}, ${text}, is refused: ${JSON.stringify(read.problems)}`);
  return (read.settings as Record<string, unknown>)[name];
}

// A documented default column agrees with the schema: a stated default means what the schema's default means, and a row
// with none ("none", "required") is a setting without one. The settings the Azure shape sets are required there.
function defaultsDisagreeing(rows: Array<{ names: string[]; defaults: string[] }>): string[] {
  return rows.flatMap(({ names, defaults: stated }) => {
    const open = names.filter((name) => !(name in AZURE_SHAPE));
    if (stated.length === 0)
      return open.filter((name) => !(defaults[name] === undefined || (Array.isArray(defaults[name]) && defaults[name].length === 0)));
    if (stated.length !== names.length) return [`${names.join(', ')}: ${stated.length} defaults for ${names.length} settings`];
    return names.filter(
      (name, index) => !(name in AZURE_SHAPE) && JSON.stringify(meaning(name, stated[index]!)) !== JSON.stringify(defaults[name]),
    );
  });
}

// The app settings an operator chooses: fed by a main.bicep param that azd fills from a HEADCOUNT_ value.
const choices = [...appSettings]
  .map(([setting, expression]) => ({ setting, param: apiArgs.get(expression) ?? '' }))
  .filter(({ param }) => params(main).get(param)?.fallback === "''");

describe('every setting the schema knows is listed everywhere settings are listed', () => {
  it('reads the full list from the schema, optional settings and settings with defaults included', () => {
    expect(new Set(ALL).size).toBe(ALL.length);
    expect(ALL).toEqual(
      expect.arrayContaining([
        ...LOCAL_ONLY,
        ...AZURE_ONLY,
        'HASH_KEY',
        'FUNNEL_STEPS',
        'IDENTITY_MODE',
        'SUBJECT_SCAN_INTERVAL_SECONDS',
        'SUBJECT_REFRESH_SECONDS',
      ]),
    );
    // Whatever the schema returns, for either shape, is a setting the list holds.
    const local = readSettings(LOCAL);
    expect(Object.keys(defaults).filter((name) => !ALL.includes(name))).toEqual([]);
    expect(local.ok && Object.keys(local.settings).filter((name) => !ALL.includes(name))).toEqual([]);
  });

  it("in the Function App's app settings (infra/app/api.bicep), all but the local shape's connection string and key", () => {
    expect(ALL.filter((name) => !appSettings.has(name) && !LOCAL_ONLY.includes(name))).toEqual([]);
    const environment = deployedEnvironment();
    for (const name of LOCAL_ONLY) {
      expect(appSettings.has(name), `${name} is not set in Azure`).toBe(false);
      expect(readSettings({ ...environment, [name]: LOCAL[name] }).ok, `${name} beside the Azure shape is refused`).toBe(false);
    }
  });

  it('in local.settings.example.json, all but the Azure identity settings, and nothing the schema does not know', () => {
    expect(ALL.filter((name) => !(name in LOCAL) && !AZURE_ONLY.includes(name))).toEqual([]);
    expect(Object.keys(LOCAL).filter((name) => !ALL.includes(name) && !HOST_ONLY.includes(name))).toEqual([]);
    for (const name of AZURE_ONLY) {
      expect(name in LOCAL, `${name} is not in the local example`).toBe(false);
      expect(readSettings({ ...LOCAL, [name]: AZURE_SHAPE[name]! }).ok, `${name} beside the local shape is refused`).toBe(false);
    }
  });

  it("in docs/settings.md's table, each once, with the schema's default", () => {
    const rows = documented('docs/settings.md', '## Every setting', 0, 2);
    const names = rows.flatMap((row) => row.names);
    expect([...names].sort()).toEqual([...ALL].sort());
    // A code span in the setting column that the schema does not know is a setting documented but never read.
    const unknown = tableRows('docs/settings.md', '## Every setting').flatMap((cells) =>
      codes(cells[0]!).filter((name) => /^[A-Za-z]\w*$/.test(name) && !ALL.includes(name)),
    );
    expect(unknown).toEqual([]);
    expect(defaultsDisagreeing(rows)).toEqual([]);
  });
});

describe("each of the operator's choices goes from azd to its own app setting", () => {
  it('includes the settings added since the infra was first written', () => {
    expect(choices.map(({ setting }) => setting)).toEqual(
      expect.arrayContaining(['IDENTITY_MODE', 'SUBJECT_SCAN_INTERVAL_SECONDS', 'SUBJECT_REFRESH_SECONDS', 'FUNNEL_STEPS']),
    );
  });

  it('is filled by azd from HEADCOUNT_<setting>, left empty when unset', () => {
    expect(choices.filter(({ setting, param }) => parameterFile[param]?.value !== `\${HEADCOUNT_${setting}=}`)).toEqual([]);
  });

  it('reaches exactly its setting, and no other, when chosen', () => {
    const unset = deployedEnvironment();
    for (const { setting, param } of choices) {
      const chosen = deployedEnvironment({ [param]: `chosen-${param}` });
      const changed = Object.keys(chosen).filter((name) => chosen[name] !== unset[name]);
      expect(changed, `${param} sets ${setting}`).toEqual([setting]);
      expect(chosen[setting]).toBe(`chosen-${param}`);
    }
  });

  it("deploys, unset, to exactly the schema's defaults", () => {
    const read = readSettings(deployedEnvironment());
    expect(read.ok && read.settings).toEqual(defaults);
    expect(choices.filter(({ setting }) => setting in deployedEnvironment())).toEqual([]);
  });

  it("is in docs/deploy.md's Deploy to Azure table beside its setting, with the schema's default", () => {
    const rows = tableRows('docs/deploy.md', '## Deploy to Azure');
    const missing = choices.filter(
      ({ setting }) => !rows.some((cells) => codes(cells[0]!).includes(`HEADCOUNT_${setting}`) && codes(cells[1]!)[0] === setting),
    );
    expect(missing).toEqual([]);
    expect(defaultsDisagreeing(documented('docs/deploy.md', '## Deploy to Azure', 1, 2))).toEqual([]);
  });
});
