// @ts-check
// Settings: the deployment's configuration (GET/PUT /api/admin/config), its goals, segments, annotations, sites and
// each site's mail each added, changed and removed in a form of their own. Every save names the version read (If-Match), so of two
// browsers editing at once the second is told the first changed it, shown the settings as they are now, and loses
// nothing of the first. Saved segments are also picked, and the current filters saved as one, from the filter bar.
import { $, el, emptyNote, say } from './admin-dom.js';
import { filterWords } from './admin-filters.js';
import { go, readFilter, state } from './admin-state.js';

/** @typedef {import('../shared/contract/config').ConfigAnswerBody} Config */
/** @typedef {keyof Pick<Config, 'goals' | 'funnels' | 'segments' | 'annotations' | 'sites' | 'email'>} ListName */

const CONFIG = '/api/admin/config';

/** The configuration as last read and the version to name when saving it. */
/** @type {{ config: Config | null, etag: string }} */
const held = { config: null, etag: '' };

/** Called after a save, so the period's panels show what changed. */
let saved = () => {};

/** Each field's name in the owner's words, for a refusal that names it. */
const FIELD_WORDS = /** @type {Record<string, string>} */ ({
  name: 'Name',
  event: 'Event',
  pages: 'Pages',
  filters: 'Filters',
  day: 'Day',
  note: 'Note',
  origins: 'Origins',
  time_zone: 'Time zone',
  site: 'Site',
  steps: 'Steps',
  recipients: 'Recipients',
  reports: 'Reports',
  spike_people: 'Spike',
  drop_percent: 'Drop',
});

const text = (/** @type {HTMLFormElement} */ form, /** @type {string} */ name) =>
  /** @type {HTMLInputElement} */ (form.elements.namedItem(name)).value.trim();
const listOf = (/** @type {string} */ value) =>
  value
    .split(/[\n,]/)
    .map((part) => part.trim())
    .filter((part) => part !== '');

/**
 * Each list's words, how a row reads, and how its form makes an item and is filled from one.
 * @type {Record<ListName, { title: string, empty: string, words: (item: any) => string, fields: Array<[string, string, string]>, item: (form: HTMLFormElement) => any, fill: (item: any) => Record<string, string> }>}
 */
const LISTS = {
  goals: {
    title: 'Goals',
    empty: 'No goals yet.',
    words: (goal) => `${goal.name}: ${goal.event ? `the event ${goal.event}` : `pages ${goal.pages.join(', ')}`}`,
    fields: [
      ['name', 'Name', 'signup'],
      ['event', 'Event (or pages)', 'signup'],
      ['pages', 'Pages, * for any characters', '/pricing/*'],
    ],
    item: (form) => {
      const event = text(form, 'event');
      const pages = listOf(text(form, 'pages'));
      return { name: text(form, 'name'), ...(event ? { event } : {}), ...(pages.length > 0 ? { pages } : {}) };
    },
    fill: (goal) => ({ name: goal.name, event: goal.event ?? '', pages: (goal.pages ?? []).join(', ') }),
  },
  funnels: {
    title: 'Funnels',
    empty: 'No funnels yet.',
    words: (funnel) => `${funnel.name}: ${funnel.steps.map(stepWords).join(' → ')}`,
    fields: [
      ['name', 'Name', 'signup'],
      ['steps', 'Steps, in order: name: pages or event:name, > between', 'Pricing: /pricing/* > Signed up: event:signup'],
    ],
    item: (form) => ({ name: text(form, 'name'), steps: text(form, 'steps').split('>').map(stepOf) }),
    fill: (funnel) => ({ name: funnel.name, steps: funnel.steps.map(stepText).join(' > ') }),
  },
  segments: {
    title: 'Segments',
    empty: 'No segments yet: filter the dashboard, then save the filters as a segment.',
    words: (segment) => `${segment.name}: ${segment.filters.map(segmentFilterWords).join(', ')}`,
    fields: [
      ['name', 'Name', 'Team plan'],
      ['filters', 'Filters, dimension:value', 'page:/pricing/team'],
    ],
    item: (form) => ({ name: text(form, 'name'), filters: listOf(text(form, 'filters')) }),
    fill: (segment) => ({ name: segment.name, filters: segment.filters.join(', ') }),
  },
  annotations: {
    title: 'Annotations',
    empty: 'No annotations yet.',
    words: (note) => `${note.day}: ${note.note}`,
    fields: [
      ['day', 'Day', 'YYYY-MM-DD'],
      ['note', 'Note', 'Launch post'],
    ],
    item: (form) => ({ day: text(form, 'day'), note: text(form, 'note') }),
    fill: (note) => ({ day: note.day, note: note.note }),
  },
  sites: {
    title: 'Sites',
    empty: 'No sites.',
    words: (site) => `${site.name}: ${site.origins.join(', ') || 'no origins'}${site.time_zone ? `, ${site.time_zone} days` : ''}`,
    fields: [
      ['name', 'Name', 'example.com'],
      ['origins', 'Origins', 'https://example.com'],
      ['time_zone', 'Time zone', 'Europe/Paris'],
    ],
    item: (form) => {
      const zone = text(form, 'time_zone');
      return { name: text(form, 'name'), origins: listOf(text(form, 'origins')), ...(zone ? { time_zone: zone } : {}) };
    },
    fill: (site) => ({ name: site.name, origins: site.origins.join(', '), time_zone: site.time_zone ?? '' }),
  },
  email: {
    title: 'Email reports and alerts',
    empty: 'No mail set. Each recipient added is sent a link to confirm first, and every mail a link to stop them.',
    words: mailWords,
    fields: [
      ['site', 'Site', 'example.com'],
      ['recipients', 'Recipients', 'owner@example.com'],
      ['reports', 'Reports: weekly, monthly', 'weekly, monthly'],
      ['spike_people', 'Spike: people in 30 minutes', '50'],
      ['drop_percent', "Drop: % of the week before's day", '50'],
    ],
    item: (form) => {
      const spike = whole(text(form, 'spike_people'));
      const drop = whole(text(form, 'drop_percent'));
      return {
        site: text(form, 'site'),
        recipients: listOf(text(form, 'recipients')),
        reports: listOf(text(form, 'reports')),
        ...(spike === undefined ? {} : { spike_people: spike }),
        ...(drop === undefined ? {} : { drop_percent: drop }),
      };
    },
    fill: (mail) => ({
      site: mail.site,
      recipients: mail.recipients.join(', '),
      reports: mail.reports.join(', '),
      spike_people: mail.spike_people === undefined ? '' : String(mail.spike_people),
      drop_percent: mail.drop_percent === undefined ? '' : String(mail.drop_percent),
    }),
  },
};

/** A whole number typed, or nothing when the field is empty. */
const whole = (/** @type {string} */ value) => (value === '' ? undefined : Number(value));

/** A site's mail as its row says it. */
function mailWords(/** @type {Config['email'][number]} */ mail) {
  const reports = mail.reports.length === 0 ? 'no reports' : `${mail.reports.join(' and ')} reports`;
  const spike = mail.spike_people === undefined ? '' : `, a spike at ${mail.spike_people} people in 30 minutes`;
  const drop = mail.drop_percent === undefined ? '' : `, a drop below ${mail.drop_percent}% of the week before`;
  return `${mail.site}: ${reports}${spike}${drop}, to ${mail.recipients.join(', ') || 'no one yet'}`;
}

/** A funnel's step from its words: `Pricing: /pricing/*, event:buy`. */
function stepOf(/** @type {string} */ words, /** @type {number} */ at) {
  const colon = words.indexOf(':');
  const named = colon > 0 && !words.slice(0, colon).includes('/') && words.slice(0, colon).trim() !== 'event';
  const targets = listOf(named ? words.slice(colon + 1) : words);
  return {
    name: named ? words.slice(0, colon).trim() : `Step ${at + 1}`,
    pages: targets.filter((target) => !target.startsWith('event:')),
    events: targets.filter((target) => target.startsWith('event:')).map((target) => target.slice(6)),
  };
}

/** A step as its form takes it. */
const stepText = (/** @type {{ name: string, pages: string[], events: string[] }} */ step) =>
  `${step.name}: ${[...step.pages, ...step.events.map((event) => `event:${event}`)].join(', ')}`;

/** A step as its row says it. */
const stepWords = (/** @type {{ name: string, pages: string[], events: string[] }} */ step) =>
  `${step.name} (${[...step.pages, ...step.events.map((event) => `the event ${event}`)].join(' or ')})`;

/** A saved segment's filter as a chip says it: "Page is /pricing". */
function segmentFilterWords(/** @type {string} */ value) {
  const filter = readFilter(value);
  return filter ? filterWords(filter) : value;
}

/** The row being changed in each list; null adds a new one. */
const editing = /** @type {Record<ListName, number | null>} */ ({
  goals: null,
  funnels: null,
  segments: null,
  annotations: null,
  sites: null,
  email: null,
});

/** The configuration to send: what was read, less what the app adds itself (the day each goal and funnel was added). */
function body(/** @type {Config} */ config) {
  const { goals, funnels, ...rest } = config;
  return {
    ...rest,
    goals: goals.map(({ added: _added, ...goal }) => goal),
    funnels: funnels.map(({ added: _added, ...funnel }) => funnel),
  };
}

/** Reads the configuration and its version, and draws every list. */
export async function loadSettings() {
  const response = await fetch(CONFIG, { cache: 'no-store', credentials: 'same-origin' }).catch(() => null);
  if (!response?.ok)
    return say(
      $('#settings-message'),
      `The settings could not be read: ${response ? `the app answered ${response.status}` : 'the app could not be reached'}.`,
      true,
    );
  held.config = /** @type {Config} */ (await response.json());
  held.etag = response.headers.get('etag') ?? '';
  for (const name of /** @type {ListName[]} */ (Object.keys(LISTS))) drawList(name);
  showSegmentPicker();
}

/** Saves the configuration with one list changed; a refusal is said beside the form that made it. */
async function save(/** @type {ListName} */ name, /** @type {any[]} */ list, /** @type {HTMLElement} */ where) {
  if (!held.config) return false;
  say(where, '');
  const response = await fetch(CONFIG, {
    method: 'PUT',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json', 'if-match': held.etag },
    body: JSON.stringify(body({ ...held.config, [name]: list })),
  }).catch(() => null);
  if (!response) {
    say(where, 'Not saved: the app could not be reached.', true);
    return false;
  }
  const answer = await response.json().catch(() => null);
  if (response.status === 412) {
    await loadSettings();
    say(
      $('#settings-message'),
      'Someone changed the settings since you opened them. They are shown as they are now: make your change again.',
      true,
    );
    return false;
  }
  if (!response.ok) {
    say(where, refusalWords(answer), true);
    return false;
  }
  held.config = /** @type {Config} */ (answer);
  held.etag = response.headers.get('etag') ?? '';
  editing[name] = null;
  drawList(name);
  showSegmentPicker();
  say($('#settings-message'), 'Saved.');
  saved();
  return true;
}

/** "Pages: must be a path starting with /" from `goals.2.pages.0: must be …`. */
function refusalWords(/** @type {any} */ answer) {
  const issue = answer?.error?.issues?.[0];
  if (!issue) return answer?.error?.message ?? 'The settings could not be saved.';
  const field = String(issue.path)
    .split('.')
    .find((part) => Object.hasOwn(FIELD_WORDS, part));
  return field ? `${FIELD_WORDS[field]}: ${issue.message}.` : `${issue.message}.`;
}

/** One list: its rows, each with Change and Remove, and its form, which adds a row or changes the one picked. */
function drawList(/** @type {ListName} */ name) {
  const spec = LISTS[name];
  const items = /** @type {any[]} */ (held.config?.[name] ?? []);
  const error = el('p', { className: 'message', id: `settings-${name}-error` });
  error.setAttribute('role', 'alert');
  const form = el('form', { className: 'inline', noValidate: true });
  form.dataset.list = name;
  const values = editing[name] === null ? {} : spec.fill(items[editing[name] ?? 0]);
  for (const [field, label, hint] of spec.fields) {
    const id = `settings-${name}-${field}`;
    const input = el('input', { id, name: field, placeholder: hint, value: values[field] ?? '', autocomplete: 'off' });
    input.setAttribute('aria-describedby', error.id);
    form.append(el('div', {}, el('label', { htmlFor: id, textContent: label }), input));
  }
  const submit = el('button', { type: 'submit', textContent: editing[name] === null ? `Add` : 'Save the change' });
  form.append(el('div', {}, submit));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const at = editing[name];
    const item = spec.item(form);
    void save(name, at === null ? [...items, item] : items.map((one, i) => (i === at ? item : one)), error);
  });
  const rows = items.map((item, at) => {
    const change = el('button', { type: 'button', className: 'quiet', textContent: 'Change' });
    change.setAttribute('aria-label', `Change ${spec.words(item)}`);
    change.addEventListener('click', () => {
      editing[name] = at;
      drawList(name);
    });
    const remove = el('button', { type: 'button', className: 'quiet', textContent: 'Remove' });
    remove.setAttribute('aria-label', `Remove ${spec.words(item)}`);
    remove.addEventListener(
      'click',
      () =>
        void save(
          name,
          items.filter((_, i) => i !== at),
          error,
        ),
    );
    return el('li', { className: 'link-row' }, el('span', { textContent: spec.words(item) }), el('span', {}, change, remove));
  });
  $(`#settings-${name}`).replaceChildren(
    el('h3', { textContent: spec.title }),
    rows.length === 0 ? emptyNote(spec.empty) : el('ul', { className: 'links' }, ...rows),
    form,
    error,
  );
}

/** The saved segments in the filter bar; picking one makes its filters the view's. */
function showSegmentPicker() {
  const picker = /** @type {HTMLSelectElement} */ ($('#segment-pick'));
  const segments = held.config?.segments ?? [];
  picker.replaceChildren(
    el('option', { value: '', textContent: segments.length === 0 ? 'No segments saved' : 'Pick a segment' }),
    ...segments.map((segment) => el('option', { value: segment.name, textContent: segment.name })),
  );
  showSegmentSave();
}

/** The filter bar's segments and the Settings view's lists; `onSaved` reads the period again after a change. */
export function wireSettings(/** @type {() => void} */ onSaved) {
  saved = onSaved;
  $('#settings-panel').replaceChildren(
    el('p', { id: 'settings-message', className: 'message', role: 'status' }),
    ...Object.keys(LISTS).map((name) => el('section', { id: `settings-${name}`, className: 'settings-list' })),
  );
  $('#settings-open').addEventListener('click', () => {
    const open = $('#settings').hidden;
    $('#settings').hidden = !open;
    $('#settings-open').setAttribute('aria-expanded', String(open));
    if (open) $('#settings-title').scrollIntoView();
  });
  $('#segment-pick').addEventListener('change', (event) => {
    const name = /** @type {HTMLSelectElement} */ (event.target).value;
    const segment = held.config?.segments.find((one) => one.name === name);
    if (!segment) return;
    const filters = segment.filters.map(readFilter).filter((filter) => filter !== null);
    go({ period: state.view.period, filters });
  });
  $('#segment-save').addEventListener('click', () => {
    $('#segment-form').hidden = false;
    /** @type {HTMLInputElement} */ ($('#segment-name')).focus();
  });
  $('#segment-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const name = /** @type {HTMLInputElement} */ ($('#segment-name')).value.trim();
    const filters = state.view.filters.map((f) => `${f.negated ? '!' : ''}${f.dimension}:${f.value}`);
    const list = [...(held.config?.segments ?? []).filter((one) => one.name !== name), { name, filters }];
    void save('segments', list, $('#segment-error')).then((done) => {
      $('#segment-form').hidden = done;
    });
  });
}

/** The filter bar's segments stand when there is one to pick, and its Save button when there are filters to save. */
export function showSegmentSave() {
  const filtered = state.view.filters.length > 0;
  $('#segment-save').hidden = !filtered || held.config === null;
  // Nothing to pick and nothing to save takes no room.
  $('#segments').hidden = held.config === null || (!filtered && held.config.segments.length === 0);
}
