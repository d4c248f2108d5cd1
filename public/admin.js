// headcount Admin: signs in with the operator key, then reads the count, the activity, the subjects, the mark and now,
// each panel on its own, so one that fails says so and the others still show. The words come from the widget's
// script (one rule for "no people, 1 person, 2 people" and "since 23 Oct" on both surfaces).
const Pulse = customElements.get('headcount-pulse');
const { unitOf, figure, dayWords } = Pulse.words;

const KEY = 'headcount-operator-key';
// Every read the dashboard makes, in one place (DESIGN.md "Reads").
const API = {
  people: '/api/admin/visitors/people',
  activity: '/api/admin/activity?days=30',
  subjects: '/api/admin/subjects?sort=scans&order=desc&limit=50',
  mark: '/api/admin/mark',
  now: '/api/admin/now',
  export: '/api/admin/export',
};
// Okabe–Ito: a set that stays apart under the common colour blindnesses, each at 3:1 or more on white.
const KIND_COLOURS = { people: '#0072B2', scanners: '#D55E00', self: '#009E73' };
const STORE_COLOURS = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#000000', '#56B4E9'];
const SOURCE_NAMES = { linkedin: 'LinkedIn', github: 'GitHub', search: 'Search', other: 'Other sites', typed: 'Typed or unknown' };

const $ = (selector, within = document) => within.querySelector(selector);
const el = (tag, props = {}, ...children) => {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children.filter((child) => child !== null && child !== undefined));
  return node;
};

Chart.defaults.animation = false;
Chart.defaults.color = '#1b1f24';
Chart.defaults.borderColor = '#e3e7ec';
Chart.defaults.font.family = getComputedStyle(document.documentElement).fontFamily;
Chart.defaults.maintainAspectRatio = false;

/** Thrown when the key is no longer accepted: every panel stops and the dashboard signs out. */
class SignedOut extends Error {}

/** A read of the app with the key: the body, or why there is none; a 401 signs out. */
async function read(path) {
  try {
    const response = await fetch(path, { headers: { authorization: `Bearer ${sessionStorage.getItem(KEY) ?? ''}` }, cache: 'no-store' });
    const body = await response.json().catch(() => null);
    if (response.status === 401) throw new SignedOut();
    if (!response.ok) return { ok: false, why: body?.error?.message ?? `the app answered ${response.status}` };
    return { ok: true, body };
  } catch (error) {
    if (error instanceof SignedOut) throw error;
    return { ok: false, why: 'the app could not be reached' };
  }
}

// ---- the words of a count ------------------------------------------------------------------------------------

/** A tile: the figure and the unit that fits it ("No people yet", "1 person", "2 people"), or a dash when unread. */
function tile(name, n, one, many, after = '') {
  const node = $(`[data-figure="${name}"]`);
  const unread = typeof n !== 'number';
  $('.figure', node).textContent = unread ? '–' : n === 0 ? 'No' : figure(n);
  $('.unit', node).textContent = unread ? 'not read' : `${unitOf(n, one, many)}${after}`;
}

const lastOf = (run) => (run && run.length ? run[run.length - 1].day : null);
const shortDay = (day, today) => dayWords(day, today) ?? day;

// ---- charts, each with a text alternative ----------------------------------------------------------------------

const charts = new Map();

/**
 * Draws one chart in its figure, or says why there is nothing to draw. The canvas carries a one-sentence summary
 * for a screen reader, and a visually hidden table beside it holds every figure drawn.
 */
function draw(name, { config, summary, table, empty }) {
  const figureNode = $(`[data-chart="${name}"]`);
  const plot = $('.plot', figureNode);
  charts.get(name)?.destroy();
  charts.delete(name);
  $('.alt', figureNode)?.remove();
  figureNode.removeAttribute('data-drawn');
  if (empty) {
    plot.replaceChildren(el('p', { className: 'empty', textContent: empty }));
    return;
  }
  const canvas = el('canvas', { role: 'img' });
  canvas.setAttribute('aria-label', summary);
  plot.replaceChildren(canvas);
  charts.set(name, new Chart(canvas, config));
  // A table ignores a width of 1px, so the hidden one sits in a block that does not.
  figureNode.append(el('div', { className: 'alt visually-hidden' }, dataTable($('figcaption', figureNode).textContent, table.head, table.rows)));
  figureNode.setAttribute('data-drawn', 'true');
}

function failed(name, why) {
  charts.get(name)?.destroy();
  charts.delete(name);
  const figureNode = $(`[data-chart="${name}"]`);
  $('.alt', figureNode)?.remove();
  figureNode.removeAttribute('data-drawn');
  $('.plot', figureNode).replaceChildren(el('p', { className: 'failed', textContent: `Could not be read: ${why}.` }));
}

function dataTable(caption, head, rows) {
  const headRow = el('tr', {}, ...head.map((text, i) => el('th', { scope: 'col', className: i > 0 ? 'n' : '', textContent: text })));
  const body = rows.map((row) => el('tr', {}, ...row.map((cell, i) => (i === 0 ? el('th', { scope: 'row', textContent: cell }) : el('td', { className: 'n', textContent: String(cell) })))));
  return el('table', { className: 'data' }, el('caption', { textContent: caption }), el('thead', {}, headRow), el('tbody', {}, ...body));
}

const bars = (labels, datasets, options = {}) => ({ type: 'bar', data: { labels, datasets }, options: { plugins: { legend: { display: datasets.length > 1 } }, scales: { y: { beginAtZero: true, ticks: { precision: 0 } } }, ...options } });
const sum = (values) => values.reduce((total, value) => total + value, 0);

// ---- the panels ------------------------------------------------------------------------------------------------

function showPeople(result) {
  const section = $('#people');
  section.setAttribute('aria-busy', 'false');
  if (!result.ok) {
    for (const name of ['people_all_time', 'people_new_today', 'people_new_month', 'scanners_left_out', 'visits_all_time']) tile(name, null);
    failed('new-people', result.why);
    failed('visits', result.why);
    $('#people-source').textContent = '';
    return;
  }
  const count = result.body;
  const today = lastOf(count.people_new_by_day);
  const since = count.people_all_time && count.counted_from ? ` since ${shortDay(count.counted_from, today)}` : ' yet';
  tile('people_all_time', count.people_all_time, 'person', 'people', since);
  tile('people_new_today', count.people_new_today, 'person', 'people');
  tile('people_new_month', count.people_new_month, 'person', 'people');
  tile('scanners_left_out', count.scanners_left_out, 'scanner', 'scanners');
  const visits = count.visits;
  if (visits) tile('visits_all_time', visits.all_time, 'visit', 'visits', ` since ${shortDay(visits.from, lastOf(visits.by_day))}`);
  else {
    $('[data-figure="visits_all_time"] .figure').textContent = '–';
    $('[data-figure="visits_all_time"] .unit').textContent = 'not counted yet';
  }
  $('#people-source').textContent = `Read from: ${count.source}.`;

  const run = count.people_new_by_day ?? [];
  const newPeople = run.map((d) => d.people);
  draw('new-people', {
    empty: count.people_new_by_day === null ? 'The count could not be read.' : sum(newPeople) === 0 ? 'No new people in the last 30 days.' : null,
    summary: `New people on each of the last ${run.length} days: ${sum(newPeople)} in all, at most ${Math.max(0, ...newPeople)} in a day.`,
    config: bars(run.map((d) => shortDay(d.day, today)), [{ label: 'New people', data: newPeople, backgroundColor: KIND_COLOURS.people }]),
    table: { head: ['Day', 'New people'], rows: run.map((d) => [d.day, d.people]) },
  });
  const visitRun = visits?.by_day ?? [];
  const perDay = visitRun.map((d) => d.visits);
  draw('visits', {
    empty: visits === null ? 'Visits by people are counted every minute; none are counted yet.' : sum(perDay) === 0 ? 'No visits by people in the last 30 days.' : null,
    summary: `Visits by people on each of the last ${visitRun.length} days: ${sum(perDay)} in all, at most ${Math.max(0, ...perDay)} in a day.`,
    config: bars(visitRun.map((d) => shortDay(d.day, lastOf(visitRun))), [{ label: 'Visits by people', data: perDay, backgroundColor: KIND_COLOURS.people }]),
    table: { head: ['Day', 'Visits by people'], rows: visitRun.map((d) => [d.day, d.visits]) },
  });
}

const AUDIENCE_CHARTS = ['countries', 'campaigns', 'browsers', 'systems', 'types'];

function showActivity(result) {
  for (const id of ['#kinds', '#hours', '#sources', '#path', '#countries', '#campaigns', '#devices']) $(id).setAttribute('aria-busy', 'false');
  const activity = result.ok ? result.body : null;
  const why = !result.ok ? result.why : activity.availability?.available === false ? activity.availability.reason.replace(/\.$/, '') : null;
  $('#availability').textContent = activity?.availability?.reason ?? '';
  if (why || !activity.by_day) {
    for (const name of ['kinds', 'hours', 'sources', 'path', ...AUDIENCE_CHARTS]) failed(name, why ?? 'the store did not answer');
    return;
  }
  showKinds(activity.by_day);
  showHours(activity.hours ?? []);
  showSources(activity.sources);
  showPath(activity.path ?? []);
  showCountries(activity.countries ?? []);
  showCampaigns(activity.campaigns ?? []);
  const devices = activity.devices ?? { browsers: [], systems: [], types: [] };
  showNames('browsers', devices.browsers, 'browser', 'No people in the last 30 days, or none with a known browser.');
  showNames('systems', devices.systems, 'system', 'No people in the last 30 days, or none with a known system.');
  showNames('types', devices.types, 'device type', 'No people in the last 30 days, or none with a known device type.');
}

/** The ten largest of a list drawn, every one in the table. */
const SHOWN = 10;

/** A horizontal bar chart of named counts, the largest first. */
function namedBars(name, rows, { label, empty, summary, head }) {
  const shown = rows.slice(0, SHOWN);
  draw(name, {
    empty: rows.length === 0 ? empty : null,
    summary,
    config: bars(shown.map((r) => r.label), [{ label, data: shown.map((r) => r.value), backgroundColor: KIND_COLOURS.people }], { indexAxis: 'y', scales: { x: { beginAtZero: true, ticks: { precision: 0 } } } }),
    table: { head, rows: rows.map((r) => [r.label, r.value]) },
  });
}

const listWords = (rows) => rows.slice(0, 5).map((r) => `${r.label} ${r.value}`).join(', ') + (rows.length > 5 ? `, and ${rows.length - 5} more` : '');

function showCountries(countries) {
  const rows = countries.map((c) => ({ label: c.country === 'XX' ? 'Unknown (XX)' : c.country, value: c.visitor_days }));
  namedBars('countries', rows, {
    label: 'Visitor-days',
    empty: 'No people in the last 30 days.',
    summary: `People's visitor-days by country, most first: ${listWords(rows)}.`,
    head: ['Country', 'Visitor-days'],
  });
}

const campaignWords = (c) => [c.source ?? '(no source)', c.medium ?? '(no medium)', c.campaign ?? '(no campaign)'].join(' / ');

function showCampaigns(campaigns) {
  const rows = campaigns.map((c) => ({ label: campaignWords(c), value: c.page_loads }));
  namedBars('campaigns', rows, {
    label: 'Page loads',
    empty: 'No page load by people carried a campaign tag in the last 30 days.',
    summary: `People's page loads by campaign (source / medium / campaign), most first: ${listWords(rows)}.`,
    head: ['Campaign (source / medium / campaign)', 'Page loads'],
  });
}

function showNames(name, list, what, empty) {
  const rows = list.map((n) => ({ label: n.name, value: n.visitor_days }));
  namedBars(name, rows, { label: 'Visitor-days', empty, summary: `People's visitor-days by ${what}, most first: ${listWords(rows)}.`, head: [what[0].toUpperCase() + what.slice(1), 'Visitor-days'] });
}

function showNow(result) {
  $('#now').setAttribute('aria-busy', 'false');
  const now = result.ok ? result.body : null;
  const why = !result.ok ? result.why : now.availability?.available === false ? now.availability.reason.replace(/\.$/, '') : null;
  if (why || now.people_last_30_minutes === null) {
    tile('people_last_30_minutes', null);
    failed('now-minutes', why ?? 'the store did not answer');
    failed('now-paths', why ?? 'the store did not answer');
    return;
  }
  tile('people_last_30_minutes', now.people_last_30_minutes, 'person', 'people');
  const minutes = now.by_minute;
  const people = minutes.map((m) => m.people);
  draw('now-minutes', {
    empty: now.people_last_30_minutes === 0 ? 'Nobody in the last 30 minutes.' : null,
    summary: `People each minute over the last 30 minutes: ${now.people_last_30_minutes} in all, at most ${Math.max(0, ...people)} in a minute.`,
    config: bars(minutes.map((m) => m.minute.slice(11, 16)), [{ label: 'People', data: people, backgroundColor: KIND_COLOURS.people }], { scales: { y: { beginAtZero: true, ticks: { precision: 0 } }, x: { ticks: { maxTicksLimit: 6, maxRotation: 0 } } } }),
    table: { head: ['Minute (UTC)', 'People'], rows: minutes.map((m) => [m.minute.slice(11, 16), m.people]) },
  });
  const rows = now.top_paths.map((p) => ({ label: p.path, value: p.requests }));
  namedBars('now-paths', rows, {
    label: 'Requests',
    empty: 'Nobody read a page in the last 30 minutes.',
    summary: `People's most read paths in the last 30 minutes: ${listWords(rows)}.`,
    head: ['Path', 'Requests'],
  });
}

// ---- the export ------------------------------------------------------------------------------------------------

/** The export's range, the last 30 days ending with the app's today (the card's last day) unless one is typed. */
function exportDefaults(last) {
  const today = last ?? new Date().toISOString().slice(0, 10);
  if (!$('#export-to').value) $('#export-to').value = today;
  if (!$('#export-from').value) $('#export-from').value = new Date(Date.parse(`${today}T00:00:00Z`) - 29 * 86_400_000).toISOString().slice(0, 10);
}

async function exportFigures(event) {
  event.preventDefault();
  const message = $('#export-message');
  const button = $('#export-button');
  const query = new URLSearchParams({ from: $('#export-from').value, to: $('#export-to').value, format: $('#export-format').value });
  button.disabled = true;
  say(message, 'Preparing the export…');
  try {
    const response = await fetch(`${API.export}?${query}`, { headers: { authorization: `Bearer ${sessionStorage.getItem(KEY) ?? ''}` }, cache: 'no-store' });
    if (response.status === 401) return signOut('The key is no longer accepted. Sign in again.', true);
    if (!response.ok) {
      const body = await response.json().catch(() => null);
      return say(message, `Not exported: ${body?.error?.message ?? `the app answered ${response.status}`}.`, true);
    }
    const blob = await response.blob();
    const name = `headcount-${query.get('from')}-${query.get('to')}.${query.get('format')}`;
    const link = el('a', { href: URL.createObjectURL(blob), download: name });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
    say(message, `Exported ${name}.`);
  } catch {
    say(message, 'The app could not be reached. Check the connection and try again.', true);
  } finally {
    button.disabled = false;
  }
}

// How each reason reads in the panel: the count, then the words for it.
const LEFT_OUT_WORDS = [
  ['agent', 'crawler by agent', 'crawlers by agent'],
  ['network', 'from a data-centre network', 'from data-centre networks'],
  ['path', 'probing for secrets', 'probing for secrets'],
  ['signals', 'automated browser by its signals', 'automated browsers by their signals'],
];

/** Today's visitor-days left out, by reason, as one sentence: "Left out today: 130 crawlers by agent, 41 from …". */
function showLeftOut(day) {
  const left = day?.left_out;
  const parts = left ? LEFT_OUT_WORDS.filter(([reason]) => left[reason] > 0).map(([reason, one, many]) => `${left[reason]} ${left[reason] === 1 ? one : many}`) : [];
  $('#left-out').textContent = parts.length === 0 ? 'Left out today: nobody.' : `Left out today: ${parts.join(', ')}.`;
}

function showKinds(days) {
  showLeftOut(days[days.length - 1]);
  const today = lastOf(days);
  const kinds = [
    ['people', 'People'],
    ['scanners', 'Scanners and crawlers'],
    ['self', "The site's own reads"],
  ];
  const totals = kinds.map(([kind]) => sum(days.map((d) => d[kind])));
  draw('kinds', {
    empty: sum(totals) === 0 ? 'No visitors in the last 30 days.' : null,
    summary: `Visitor-days over the last ${days.length} days: ${totals[0]} of people, ${totals[1]} of scanners and crawlers, ${totals[2]} of the site's own reads.`,
    config: bars(
      days.map((d) => shortDay(d.day, today)),
      kinds.map(([kind, label]) => ({ label, data: days.map((d) => d[kind]), backgroundColor: KIND_COLOURS[kind], borderColor: '#ffffff', borderWidth: 1 })),
      { scales: { x: { stacked: true }, y: { stacked: true, beginAtZero: true, ticks: { precision: 0 } } } },
    ),
    table: { head: ['Day', 'People', 'Scanners and crawlers', "The site's own reads", 'Total'], rows: days.map((d) => [d.day, d.people, d.scanners, d.self, d.total]) },
  });
}

function showHours(hours) {
  const stores = [...new Set(hours.map((h) => h.store))];
  const labels = [...new Set(hours.map((h) => h.hour))];
  const requests = (store) => labels.map((hour) => hours.find((h) => h.store === store && h.hour === hour)?.requests ?? 0);
  const hourWords = (hour) => (hour.slice(11, 13) === '00' ? `${shortDay(hour.slice(0, 10))} 00:00` : `${hour.slice(11, 13)}:00`);
  const total = sum(hours.map((h) => h.requests));
  draw('hours', {
    empty: total === 0 ? 'No requests in the last 48 hours.' : null,
    summary: `Requests in the last 48 hours: ${stores.map((store) => `${sum(requests(store))} by ${store}`).join(', ')}.`,
    config: {
      type: 'line',
      data: {
        labels: labels.map(hourWords),
        datasets: stores.map((store, i) => ({ label: store, data: requests(store), borderColor: STORE_COLOURS[i % STORE_COLOURS.length], backgroundColor: STORE_COLOURS[i % STORE_COLOURS.length], pointRadius: 2 })),
      },
      options: { scales: { y: { beginAtZero: true, ticks: { precision: 0 } }, x: { ticks: { maxTicksLimit: 8, maxRotation: 0 } } } },
    },
    table: { head: ['Hour (UTC)', ...stores], rows: labels.map((hour, i) => [hour.slice(0, 16).replace('T', ' '), ...stores.map((store) => requests(store)[i])]) },
  });
}

function showSources(sources) {
  const names = Object.keys(SOURCE_NAMES);
  const values = names.map((name) => sources?.[name] ?? 0);
  const others = sources?.other_hosts ?? [];
  draw('sources', {
    empty: sum(values) === 0 ? "No page loads by people in the last 30 days." : null,
    summary: `People's page loads by source: ${names.map((name, i) => `${SOURCE_NAMES[name]} ${values[i]}`).join(', ')}.`,
    config: bars(names.map((name) => SOURCE_NAMES[name]), [{ label: 'Page loads', data: values, backgroundColor: KIND_COLOURS.people }], { indexAxis: 'y', scales: { x: { beginAtZero: true, ticks: { precision: 0 } } } }),
    table: { head: ['Source', 'Page loads'], rows: [...names.map((name, i) => [SOURCE_NAMES[name], values[i]]), ...others.map((o) => [`Other: ${o.host}`, o.page_loads])] },
  });
}

function showPath(steps) {
  const values = steps.map((s) => s.visitor_days);
  draw('path', {
    empty: steps.length === 0 ? 'No steps are set (FUNNEL_STEPS).' : sum(values) === 0 ? 'No reader took any step in the last 30 days.' : null,
    summary: `People's visitor-days that reached each step: ${steps.map((s) => `${s.step} ${s.visitor_days}`).join(', ')}.`,
    config: bars(steps.map((s) => s.step), [{ label: 'Visitor-days', data: values, backgroundColor: KIND_COLOURS.people }], { indexAxis: 'y', scales: { x: { beginAtZero: true, ticks: { precision: 0 } } } }),
    table: { head: ['Step', 'Visitor-days'], rows: steps.map((s) => [`${s.step} (${s.paths.join(', ')})`, s.visitor_days]) },
  });
}

function showSubjects(result) {
  const section = $('#subjects');
  section.setAttribute('aria-busy', 'false');
  const body = $('#subjects-body');
  if (!result.ok) {
    body.replaceChildren(el('p', { className: 'failed', textContent: `Could not be read: ${result.why}.` }));
    return;
  }
  const subjects = result.body.subjects ?? [];
  if (subjects.length === 0) {
    body.replaceChildren(el('p', { className: 'empty', textContent: 'No subject has been seen yet: a page names one with data-subject on the snippet.' }));
    return;
  }
  const more = result.body.continuation ? el('p', { className: 'note', textContent: `The ${subjects.length} most scanned are shown.` }) : null;
  body.replaceChildren(subjectsTable(subjects), ...(more ? [more] : []));
}

const SUBJECT_COLUMNS = [
  ['scans', 'Scans'],
  ['unique', 'Unique visitors'],
  ['repeat', 'Repeat scans'],
  ['scanners', 'Scanners'],
  ['self', "The site's own"],
];

/** One row a subject, most scanned first: its figures as the API answers them, and its last scan in UTC. */
function subjectsTable(subjects) {
  const head = ['Subject', ...SUBJECT_COLUMNS.map(([, title]) => title), 'Last scan (UTC)'];
  const rows = subjects.map((s) => [s.subject, ...SUBJECT_COLUMNS.map(([field]) => s[field]), s.last_scan ? s.last_scan.slice(0, 16).replace('T', ' ') : '–']);
  const table = dataTable('Subjects, most scanned first', head, rows);
  table.id = 'subjects-table';
  return table;
}

function showMark(result) {
  $('#mark').setAttribute('aria-busy', 'false');
  const list = $('#mark-links');
  if (!result.ok) {
    list.replaceChildren(el('li', { className: 'failed', textContent: `Could not be read: ${result.why}.` }));
    return;
  }
  const links = result.body.links;
  if (links.length === 0) {
    list.replaceChildren(el('li', { textContent: "No site may send beacons yet: add your site's origin to ALLOWED_ORIGINS, and its link appears here." }));
    return;
  }
  list.replaceChildren(
    ...links.map((link) =>
      el('li', {}, el('a', { href: link.mark, textContent: `Mark this browser as mine on ${link.site}`, rel: 'noreferrer' }), ' · ', el('a', { href: link.unmark, textContent: 'remove the mark', rel: 'noreferrer' })),
    ),
  );
}

// ---- signing in and out, and reading everything ----------------------------------------------------------------

function say(node, text, bad = false) {
  node.textContent = text;
  node.classList.toggle('bad', bad);
}

function showSignedIn(signedIn) {
  $('#sign-in').hidden = signedIn;
  $('#dashboard').hidden = !signedIn;
  $('#actions').hidden = !signedIn;
}

function signOut(message = '', bad = false) {
  sessionStorage.removeItem(KEY);
  for (const chart of charts.values()) chart.destroy();
  charts.clear();
  showSignedIn(false);
  say($('#sign-in-message'), message, bad);
  $('#key').value = '';
  $('#key').focus();
}

async function loadAll() {
  const refresh = $('#refresh');
  refresh.disabled = true;
  say($('#status'), 'Reading the figures…');
  for (const section of document.querySelectorAll('#dashboard section[aria-busy]')) section.setAttribute('aria-busy', 'true');
  // A panel that shows nothing yet says it is loading; one already drawn keeps its figures until the new ones come.
  const loading = () => el('p', { className: 'loading', textContent: 'Loading…' });
  for (const plot of document.querySelectorAll('[data-chart]:not([data-drawn]) .plot')) plot.replaceChildren(loading());
  if (!$('#subjects-table')) $('#subjects-body').replaceChildren(loading());
  if (!$('#mark-links a')) $('#mark-links').replaceChildren(el('li', {}, loading()));
  $('#dashboard').setAttribute('data-state', 'loading');
  try {
    const [people, activity, subjects, mark, now] = await Promise.all([read(API.people), read(API.activity), read(API.subjects), read(API.mark), read(API.now)]);
    showPeople(people);
    showActivity(activity);
    showSubjects(subjects);
    showMark(mark);
    showNow(now);
    exportDefaults(activity.ok ? activity.body.to : null);
    const failures = [people, activity, subjects, mark, now].filter((r) => !r.ok).length;
    const at = new Date().toISOString().slice(11, 19);
    say($('#status'), failures === 0 ? `Read at ${at} UTC.` : `Read at ${at} UTC; ${failures} of 5 reads failed, and their panels say why.`, failures > 0);
    $('#dashboard').setAttribute('data-state', failures === 0 ? 'ready' : 'partial');
  } catch (error) {
    if (error instanceof SignedOut) signOut('The key is no longer accepted. Sign in again.', true);
    else throw error;
  } finally {
    refresh.disabled = false;
  }
}

async function signIn(event) {
  event.preventDefault();
  const key = $('#key').value.trim();
  const message = $('#sign-in-message');
  if (!key) return say(message, 'Type the operator key first.', true);
  const button = $('#sign-in-button');
  button.disabled = true;
  say(message, 'Checking the key…');
  try {
    const response = await fetch(API.people, { headers: { authorization: `Bearer ${key}` }, cache: 'no-store' });
    if (response.status === 401) return say(message, 'That key was not accepted. Check the operator key and try again.', true);
    if (!response.ok) return say(message, `The app answered ${response.status}; try again in a moment.`, true);
    sessionStorage.setItem(KEY, key);
    say(message, '');
    showSignedIn(true);
    $('#main').focus();
    await loadAll();
  } catch {
    say(message, 'The app could not be reached. Check the connection and try again.', true);
  } finally {
    button.disabled = false;
  }
}

$('#sign-in-form').addEventListener('submit', signIn);
$('#refresh').addEventListener('click', () => void loadAll());
$('#sign-out').addEventListener('click', () => signOut('Signed out.'));
$('#export-form').addEventListener('submit', (event) => void exportFigures(event));

if (sessionStorage.getItem(KEY)) {
  showSignedIn(true);
  void loadAll();
}
document.body.setAttribute('data-ready', 'true');
