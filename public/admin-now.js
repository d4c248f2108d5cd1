// @ts-check
// Now, not of the period: visitors in the last 30 minutes, by minute, and the pages they read (read again every 30
// seconds while the page is in view); and requests by hour over the last 48 hours, by the site that served them.
import { $, el } from './admin-dom.js';
import { chartFigure, panelSection } from './admin-panel.js';
import { bars, COLOURS, draw, failed, STORE_COLOURS, sum } from './admin-chart.js';
import { showRanked } from './admin-ranked.js';
import { state } from './admin-state.js';
import { clockTime, shortDay } from './admin-words.js';

/** @typedef {import('./admin-state.js').Card} Card */

export function showNow() {
  const read = state.answers.now;
  const now = read?.ok ? read.body : null;
  const why = !read
    ? 'not read yet'
    : !read.ok
      ? read.why
      : now?.availability.available === false
        ? now.availability.reason.replace(/\.$/, '')
        : null;
  if (why || !now || now.by_minute === null || now.people_last_30_minutes === null) {
    failed('now-minutes', why ?? 'the store did not answer');
    showRanked(
      $('#now-paths-body'),
      { id: 'now-paths-table', caption: '', head: [], rows: null, empty: '' },
      why ?? 'the store did not answer',
    );
    return;
  }
  const minutes = now.by_minute;
  const visitors = minutes.map((m) => m.people);
  const clock = minutes.map((m) => clockTime(m.minute, now.time_zone));
  draw('now-minutes', {
    empty: now.people_last_30_minutes === 0 ? 'Nobody in the last 30 minutes.' : null,
    summary: `Visitors each minute over the last 30 minutes: ${now.people_last_30_minutes} in all, at most ${Math.max(0, ...visitors)} in a minute.`,
    config: bars(clock, [{ label: 'Visitors', data: visitors, backgroundColor: COLOURS.people }], {
      plugins: { legend: { display: false } },
      scales: { y: { beginAtZero: true, ticks: { precision: 0 } }, x: { ticks: { maxTicksLimit: 6, maxRotation: 0 } } },
    }),
    table: { head: [`Minute (${now.time_zone})`, 'Visitors'], rows: minutes.map((m, i) => [clock[i] ?? '', m.people]) },
  });
  showRanked(
    $('#now-paths-body'),
    {
      id: 'now-paths-table',
      caption: 'Pages read in the last 30 minutes, most first',
      head: ['Page', 'Requests'],
      rows: (now.top_paths ?? []).map((p) => ({ label: p.path, values: [p.requests] })),
      empty: 'Nobody read a page in the last 30 minutes.',
    },
    null,
  );
}

/** Requests by local clock hour and by the site that served them (a hit's `store`), the last 48 hours, every kind of visitor. */
export function showHours(/** @type {Card | null} */ card, /** @type {string | null} */ problem) {
  const hours = card?.hours;
  if (problem || !hours) return failed('hours', problem ?? 'the store did not answer');
  const sites = [...new Set(hours.map((h) => h.store))];
  const labels = [...new Set(hours.map((h) => h.hour))];
  const requests = (/** @type {string} */ site) =>
    labels.map((hour) => hours.find((h) => h.store === site && h.hour === hour)?.requests ?? 0);
  const hourWords = (/** @type {string} */ hour) =>
    hour.slice(11, 13) === '00' ? `${shortDay(hour.slice(0, 10), state.appToday)} 00:00` : `${hour.slice(11, 13)}:00`;
  const total = sum(hours.map((h) => h.requests));
  draw('hours', {
    empty: total === 0 ? 'No requests in the last 48 hours.' : null,
    summary: `Requests in the last 48 hours: ${sites.map((site) => `${sum(requests(site))} served by ${site}`).join(', ')}.`,
    config: {
      type: 'line',
      data: {
        labels: labels.map(hourWords),
        datasets: sites.map((site, i) => ({
          label: site,
          data: requests(site),
          borderColor: STORE_COLOURS[i % STORE_COLOURS.length],
          backgroundColor: STORE_COLOURS[i % STORE_COLOURS.length],
          pointRadius: 2,
        })),
      },
      options: { scales: { y: { beginAtZero: true, ticks: { precision: 0 } }, x: { ticks: { maxTicksLimit: 8, maxRotation: 0 } } } },
    },
    table: {
      head: [`Hour (${card.time_zone})`, ...sites],
      rows: labels.map((hour, i) => [hour.slice(0, 16).replace('T', ' '), ...sites.map((site) => requests(site)[i])]),
    },
  });
}

/** @type {import('./admin-panel.js').Panel} */
export const nowPanel = {
  markup: () =>
    panelSection({
      id: 'now',
      title: 'Now',
      note: 'not of the period',
      adminOnly: true,
      aboutWhat: 'About now',
      about:
        'Visitors in the last 30 minutes, each once, bots and your own visits left out, read again every 30 seconds while this page is in view; and every request of the last 48 hours, by hour and by the part of your site that served it. Neither follows the period or the filters.',
      tabs: [
        {
          id: 'now-minutes',
          label: 'Last 30 minutes',
          content: () => [
            chartFigure('now-minutes', "Visitors each minute of the site's clock", true),
            el('div', { id: 'now-paths-body' }),
          ],
        },
        {
          id: 'now-hours',
          label: 'Last 48 hours',
          content: () => [chartFigure('hours', "Requests each hour of the site's clock, by the part of the site that served them")],
        },
      ],
    }),
};
