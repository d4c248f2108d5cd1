// @ts-check
// Goals | Events | Path through: the visits that reached each goal, the events sent with their props' top values, and
// the visits that reached each step of the path through.
import { $, el, emptyNote, failedNote } from './admin-dom.js';
import { panelSection } from './admin-panel.js';
import { showRanked } from './admin-ranked.js';
import { state } from './admin-state.js';

/** @typedef {import('./admin-state.js').Card} Card */

/** An event's props in words: "plan: pro 2, free 1; size: large 1". */
const propsWords = (/** @type {Record<string, { value: string, count: number }[]>} */ props) =>
  Object.entries(props)
    .map(([key, values]) => `${key}: ${values.map((v) => `${v.value} ${v.count}`).join(', ')}`)
    .join('; ');

export function showGoals(/** @type {Card | null} */ card, /** @type {string | null} */ problem, /** @type {string} */ within) {
  showRanked(
    $('#goals-body'),
    {
      id: 'goals-table',
      caption: `Goals, most conversions first, ${within}`,
      // A shared link shows nothing all time.
      head: ['Goal', 'Conversions', 'Rate', ...(state.shared ? [] : ['People ever'])],
      rows:
        card?.goals?.map((g) => ({
          label: g.goal,
          values: [g.conversions, `${(g.rate * 100).toFixed(1)}%`, ...(state.shared ? [] : [g.people_all_time])],
          filter: { dimension: 'goal', value: g.goal },
        })) ?? null,
      empty: 'No goals are set (GOALS).',
    },
    problem,
  );
  showRanked(
    $('#events-body'),
    {
      id: 'events-table',
      caption: `Events, most first, ${within}`,
      head: ['Event', 'Events', 'Visits', 'Props'],
      rows:
        card?.events?.map((e) => ({
          label: e.event,
          values: [e.count, e.visitor_days, propsWords(e.props)],
          filter: { dimension: 'event', value: e.event },
        })) ?? null,
      // The props are words, not a figure: set left, and wrapped on a phone.
      numeric: (i) => i === 1 || i === 2,
      empty: `No events ${within}.`,
    },
    problem,
  );
  showRanked(
    $('#path-body'),
    {
      id: 'path-table',
      caption: `The path through, in visits that reached each step, ${within}`,
      head: ['Step (its pages)', 'Visits'],
      rows: card?.path?.map((s) => ({ label: `${s.step} (${s.paths.join(', ')})`, values: [s.visitor_days] })) ?? null,
      empty: 'No steps are set (FUNNEL_STEPS).',
    },
    problem,
  );
}

/** Each funnel: its steps as bars as long as their visits, each with its visits and the drop-off from the step before. */
function showFunnels(/** @type {Card | null} */ card, /** @type {string | null} */ problem, /** @type {string} */ within) {
  const body = $('#funnels-body');
  if (problem) return body.replaceChildren(failedNote(problem));
  const funnels = card?.funnels ?? [];
  if (funnels.length === 0) return body.replaceChildren(emptyNote('No funnels are set: add one in Settings.'));
  body.replaceChildren(
    ...funnels.map((funnel) => {
      const most = Math.max(1, ...funnel.steps.map((step) => step.visits));
      const rows = funnel.steps.map((step, at) => {
        const bar = el('span', { className: 'funnel-bar' });
        bar.style.width = `${(step.visits / most) * 100}%`;
        const dropped = at === 0 ? '' : `, ${step.drop_off} did not go on`;
        const row = el(
          'li',
          { className: 'funnel-step' },
          el('span', { className: 'funnel-words', textContent: `${at + 1}. ${step.name}: ${step.visits} visits${dropped}` }),
          bar,
        );
        row.dataset.step = String(at + 1);
        row.dataset.visits = String(step.visits);
        return row;
      });
      const held = funnel.holds_from === undefined ? '' : ' Still being counted back over the days kept.';
      const order =
        funnel.in_order_from === undefined
          ? 'each step reached after the one before, within a visit'
          : `each step reached after the one before, within a visit, from ${funnel.in_order_from}; before it, in any order that day`;
      const figure = el(
        'figure',
        { className: 'funnel' },
        el('figcaption', { textContent: `${funnel.funnel}, ${within}: ${order}.${held}` }),
        el('ol', {}, ...rows),
      );
      figure.dataset.funnel = funnel.funnel;
      return figure;
    }),
  );
}

/** @type {import('./admin-panel.js').Panel} */
export const goalsPanel = {
  markup: () =>
    panelSection({
      id: 'goals',
      title: 'Goals and events',
      aboutWhat: 'About goals and events',
      about:
        "Conversions: the visits that reached a goal (GOALS), and their share of all visits. People ever: each person who has ever reached it, counted once, all time. Events: the events pages sent, on how many visits, and their props' most frequent values. Path through: the visits that reached each step of FUNNEL_STEPS. Funnels: each funnel set in Settings, the visits that reached each step after every step before it, in order, and how many of the step before's went no further. First touch, all time: the people who ever reached each goal and their conversions, by where their first visit came from, and how many days after it they first converted.",
      tabs: [
        { id: 'goals', label: 'Goals' },
        { id: 'events', label: 'Events' },
        { id: 'path', label: 'Path through' },
        { id: 'funnels', label: 'Funnels' },
        { id: 'first-touch', label: 'First touch', adminOnly: true, wide: true },
      ],
    }),
  show: (card, problem, within) => {
    showGoals(card, problem, within);
    showFunnels(card, problem, within);
  },
};
