// @ts-check
// The main chart: the chosen figure (visits or pageviews) each day of the period, a month a point past 400 days, with
// the period just before as a faint second series; or every visitor of each day by kind, bots and your own visits
// stacked on the people. A click on a day (or a month) makes it the period. One day (Today, Yesterday) is drawn by its
// local clock hours, the same hours of the day before faint. Annotations are markers under it.
import { $, el } from './admin-dom.js';
import { bars, COLOURS, draw, failed, sum } from './admin-chart.js';
import { monthEnd, narrowTo, periodWords } from './admin-picker.js';
import { state } from './admin-state.js';
import { monthWords, shortDay } from './admin-words.js';

/** @typedef {import('./admin-state.js').Card} Card */
/** @typedef {{ people: number, scanners: number, self: number, total: number, page_loads?: number, people_new?: number | null, returning?: number | null, left_out: Record<string, number> }} ByWho */
/** @typedef {ByWho & { day?: string, month?: string }} Point */
/** @typedef {NonNullable<Card['by_hour']>[number]} Hour */

/** The figures the main chart can draw, as its caption and its table name them. */
const FIGURES = {
  visits: { name: 'Visits', of: (/** @type {Point} */ p) => p.people },
  page_loads: { name: 'Pageviews', of: (/** @type {Point} */ p) => p.page_loads ?? 0 },
};

// How each reason reads under the chart: the count, then the words for it.
const LEFT_OUT_WORDS = [
  ['agent', 'crawler by agent', 'crawlers by agent'],
  ['network', 'from a data-centre network', 'from data-centre networks'],
  ['path', 'probing for secrets', 'probing for secrets'],
  ['signals', 'automated browser by its signals', 'automated browsers by their signals'],
];

/** The last point's visitors left out, by reason, as one sentence: "Left out today: 130 crawlers by agent, …". */
function showLeftOut(/** @type {Point | undefined} */ last) {
  const left = last?.left_out;
  const when = last?.month
    ? `in ${monthWords(last.month)}`
    : !last || last.day === state.appToday
      ? 'today'
      : `on ${shortDay(last.day ?? '', state.appToday)}`;
  const parts = left
    ? LEFT_OUT_WORDS.filter(([reason]) => left[reason] > 0).map(
        ([reason, one, many]) => `${left[reason]} ${left[reason] === 1 ? one : many}`,
      )
    : [];
  $('#left-out').textContent = parts.length === 0 ? `Left out ${when}: nobody.` : `Left out ${when}: ${parts.join(', ')}.`;
}

/**
 * New and returning people each day, stacked: a day's people first counted that day, and those first counted before it.
 * By month there are none (a month's returning people are not the sum of its days'), so the chart says to pick a
 * shorter period.
 * @param {Point[]} run
 * @param {boolean} months
 * @param {(p: Point) => string} labelOf
 * @param {(p: Point) => string} keyOf
 * @param {{ words: string, within: string }} said
 * @param {object} options
 */
function drawReturning(run, months, labelOf, keyOf, said, options) {
  const days = months ? [] : run;
  const fresh = days.map((p) => p.people_new ?? 0);
  const back = days.map((p) => p.returning ?? 0);
  $('#main-caption').textContent = `New and returning people each day, ${said.words}`;
  return draw('main', {
    empty: months
      ? 'New and returning people are drawn day by day: pick a period of at most 400 days.'
      : sum(fresh) + sum(back) === 0
        ? `No people ${said.within}.`
        : null,
    summary: `People each day ${said.within}: ${sum(fresh)} new and ${sum(back)} returning, day by day.`,
    config: bars(
      days.map(labelOf),
      [
        { label: 'New', data: fresh, backgroundColor: COLOURS.self, borderColor: '#ffffff', borderWidth: 1 },
        { label: 'Returning', data: back, backgroundColor: COLOURS.people, borderColor: '#ffffff', borderWidth: 1 },
      ],
      { ...options, scales: { x: { stacked: true }, y: { stacked: true, beginAtZero: true, ticks: { precision: 0 } } } },
    ),
    table: { head: ['Day', 'New', 'Returning'], rows: days.map((p, i) => [keyOf(p), fresh[i], back[i]]) },
  });
}

/**
 * Requests each local clock hour of one day, as the site's clock showed them (23 or 25 on the days clocks change), and
 * the day before's hours faint.
 * @param {Hour[]} hours
 * @param {Hour[]} before
 * @param {{ words: string, within: string, before: string | null }} said
 */
function drawHours(hours, before, said) {
  const values = hours.map((hour) => hour.requests);
  const previous = before.map((hour) => hour.requests);
  // The clock's hour and, where it shows one hour twice, its offset.
  const labelOf = (/** @type {Hour} */ hour, /** @type {number} */ i, /** @type {Hour[]} */ all) => {
    const clock = hour.hour.slice(11, 16);
    return all.some((other, j) => j !== i && other.hour.slice(11, 16) === clock) ? `${clock} (${hour.hour.slice(19)})` : clock;
  };
  const faint = previous.length > 0 && said.before !== null;
  $('#main-caption').textContent = `Requests each hour, ${said.words}${faint ? `, and ${said.before} (faint)` : ''}`;
  return draw('main', {
    empty: null,
    summary:
      `Requests each hour ${said.within}: ${sum(values)} in ${hours.length} hours` + (faint ? `; ${said.before}: ${sum(previous)}.` : '.'),
    config: {
      type: 'line',
      data: {
        labels: hours.map(labelOf),
        datasets: [
          { label: `Requests, ${said.words}`, data: values, borderColor: COLOURS.people, fill: true, pointRadius: 2, tension: 0.2 },
          ...(faint
            ? [
                {
                  label: `Requests, ${said.before}`,
                  data: previous,
                  borderColor: COLOURS.faint,
                  borderDash: [4, 4],
                  pointRadius: 0,
                  borderWidth: 1.5,
                },
              ]
            : []),
        ],
      },
      options: { plugins: { legend: { display: false } }, scales: { y: { beginAtZero: true, ticks: { precision: 0 } } } },
    },
    table: {
      head: ['Hour', 'Requests', ...(faint ? [`Requests, ${said.before}`] : [])],
      rows: hours.map((hour, i) => [hour.hour, values[i], ...(faint ? [previous[i] ?? 0] : [])]),
    },
  });
}

/** The period's main chart and its annotations' markers. */
export function showMainChart(/** @type {Card | null} */ card, /** @type {string | null} */ problem) {
  drawMain(card, problem);
  showAnnotations(problem ? null : card);
}

/**
 * A marker under the chart at each annotation's day (or month), its note shown on hover and on focus.
 * @param {Card | null} card
 */
function showAnnotations(card) {
  const run = card ? (card.by_day ?? card.by_month ?? []) : [];
  const keys = run.map((p) => /** @type {Point} */ (p).day ?? /** @type {Point} */ (p).month ?? '');
  // The day the site's zone began to hold is marked as an annotation is: the days before it were kept in another zone.
  const since = card?.time_zone_from;
  const zoneNote = since ? [{ day: since, note: `${card?.time_zone} days from here; the days before were kept in another zone` }] : [];
  const markers = [...(card?.annotations ?? []), ...zoneNote].flatMap((note, n) => {
    const at = keys.findIndex((key) => note.day.startsWith(key));
    if (at < 0) return [];
    const words = `${shortDay(note.day, state.appToday)}: ${note.note}`;
    const tip = el('span', { className: 'annotation-note', id: `annotation-${n}`, role: 'tooltip', textContent: words });
    const marker = el('button', { type: 'button', className: 'annotation', textContent: '▲' }, tip);
    marker.setAttribute('aria-describedby', tip.id);
    marker.setAttribute('aria-label', `Annotation, ${shortDay(note.day, state.appToday)}`);
    const item = el('li', {}, marker);
    item.dataset.day = note.day;
    item.style.left = `${keys.length < 2 ? 50 : (at / (keys.length - 1)) * 100}%`;
    return [item];
  });
  $('#annotations').replaceChildren(...markers);
  $('#annotations').hidden = markers.length === 0;
}

/** The period's main chart from the card, or why it could not be drawn. */
function drawMain(/** @type {Card | null} */ card, /** @type {string | null} */ problem) {
  const months = Boolean(card && !card.by_day && card.by_month);
  /** @type {Point[] | null | undefined} */
  const run = card ? (months ? card.by_month : card.by_day) : null;
  const said = periodWords(state.view.period, card);
  if (problem || !card || !run) {
    $('#main-caption').textContent = `Visits, ${said.words}`;
    $('#left-out').textContent = '';
    return failed('main', problem ?? 'the store did not answer');
  }
  showLeftOut(run[run.length - 1]);
  const labelOf = (/** @type {Point} */ p) => (p.month ? monthWords(p.month) : shortDay(p.day ?? '', state.appToday));
  const keyOf = (/** @type {Point} */ p) => p.month ?? p.day ?? '';
  const step = months ? 'each month' : 'each day';
  // A click on a point makes its day, or its month, the period.
  const pick = (/** @type {unknown} */ _event, /** @type {{ index: number }[]} */ elements) => {
    const point = elements.length > 0 ? run[elements[0].index] : undefined;
    if (point?.month) narrowTo(`${point.month}-01`, monthEnd(point.month));
    else if (point?.day) narrowTo(point.day, point.day);
  };
  const hover = (/** @type {any} */ event, /** @type {unknown[]} */ elements) => {
    if (event.native?.target) event.native.target.style.cursor = elements.length > 0 ? 'pointer' : 'default';
  };
  const interaction = { mode: /** @type {const} */ ('index'), intersect: false };
  if (state.figure === 'returning') return drawReturning(run, months, labelOf, keyOf, said, { onClick: pick, onHover: hover, interaction });
  if (state.figure === 'kinds') {
    const kinds = /** @type {const} */ ([
      ['people', 'People'],
      ['scanners', 'Bots and scanners'],
      ['self', 'Your own visits'],
    ]);
    const totals = kinds.map(([kind]) => sum(run.map((p) => p[kind])));
    $('#main-caption').textContent = `Every visitor ${step} by kind, ${said.words}`;
    return draw('main', {
      empty: sum(totals) === 0 ? `No visitors ${said.within}.` : null,
      summary: `Visitors ${said.within}, by kind: ${totals[0]} visits of people, ${totals[1]} of bots and scanners, ${totals[2]} of your own.`,
      config: bars(
        run.map(labelOf),
        kinds.map(([kind, label]) => ({
          label,
          data: run.map((p) => p[kind]),
          backgroundColor: COLOURS[kind],
          borderColor: '#ffffff',
          borderWidth: 1,
        })),
        {
          onClick: pick,
          onHover: hover,
          interaction,
          scales: { x: { stacked: true }, y: { stacked: true, beginAtZero: true, ticks: { precision: 0 } } },
        },
      ),
      table: {
        head: [months ? 'Month' : 'Day', 'People', 'Bots and scanners', 'Your own visits', 'Total'],
        rows: run.map((p) => [keyOf(p), p.people, p.scanners, p.self, p.total]),
      },
    });
  }
  if (!months && run.length === 1 && card.by_hour) return drawHours(card.by_hour, card.previous?.by_hour ?? [], said);
  const chosen = FIGURES[state.figure];
  const values = run.map(chosen.of);
  /** @type {Point[]} */
  const before = (months ? card.previous?.by_month : card.previous?.by_day) ?? [];
  const previous = before.map(chosen.of);
  const faint = before.length > 0 && said.before !== null;
  $('#main-caption').textContent = `${chosen.name} ${step}, ${said.words}${faint ? `, and ${said.before} (faint)` : ''}`;
  const word = chosen.name.toLowerCase();
  draw('main', {
    empty: null,
    summary:
      `${chosen.name} ${step} ${said.within}: ${sum(values)} in all, at most ${Math.max(0, ...values)} in a ${months ? 'month' : 'day'}` +
      (faint ? `; ${said.before}: ${sum(previous)} ${word}.` : '.'),
    config: {
      type: 'line',
      data: {
        labels: run.map(labelOf),
        datasets: [
          {
            label: `${chosen.name}, ${said.words}`,
            data: values,
            borderColor: COLOURS.people,
            backgroundColor: 'rgba(0, 114, 178, 0.12)',
            fill: true,
            pointRadius: run.length > 60 ? 0 : 3,
            tension: 0.2,
          },
          ...(faint
            ? [
                {
                  label: `${chosen.name}, ${said.before}`,
                  data: previous,
                  borderColor: COLOURS.faint,
                  backgroundColor: COLOURS.faint,
                  borderDash: [4, 4],
                  pointRadius: 0,
                  borderWidth: 1.5,
                  tension: 0.2,
                },
              ]
            : []),
        ],
      },
      options: {
        onClick: pick,
        onHover: hover,
        interaction,
        plugins: { legend: { display: false } },
        scales: { y: { beginAtZero: true, ticks: { precision: 0 } }, x: { ticks: { maxTicksLimit: 10, maxRotation: 0 } } },
      },
    },
    table: {
      head: [months ? 'Month' : 'Day', chosen.name, ...(faint ? [`${chosen.name}, ${said.before}`] : [])],
      rows: run.map((p, i) => [keyOf(p), values[i], ...(faint ? [previous[i] ?? 0] : [])]),
    },
  });
}
