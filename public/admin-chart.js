// @ts-check
// Charts, each a canvas with a one-sentence summary for a screen reader and a visually hidden table of every figure.
// A chart of the same kind is redrawn on its canvas: a new canvas and chart for each read cost the page a layout each.
import { $, dataTable, el } from './admin-dom.js';

/** Chart.js, which admin.html loads before the modules as a classic script. */
const Chart = /** @type {typeof import('chart.js').Chart} */ (/** @type {any} */ (window).Chart);

Chart.defaults.animation = false;
Chart.defaults.color = '#1b1f24';
Chart.defaults.borderColor = '#e3e7ec';
Chart.defaults.font.family = getComputedStyle(document.documentElement).fontFamily;
Chart.defaults.maintainAspectRatio = false;

/** Okabe–Ito: colours that stay apart under the common colour blindnesses, each at 3:1 or more on white. */
export const COLOURS = { people: '#0072B2', scanners: '#D55E00', self: '#009E73', faint: '#8fa3b8' };
export const STORE_COLOURS = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#000000', '#56B4E9'];

/** @type {Map<string, import('chart.js').Chart>} */
const charts = new Map();

/**
 * @typedef {object} Drawing
 * @property {import('chart.js').ChartConfiguration} config
 * @property {string} summary
 * @property {{ head: string[], rows: (string | number)[][] }} table
 * @property {string | null} empty what to say instead of a chart, when there is nothing to draw
 */

/** Draws one chart in its figure, or says why there is nothing to draw. */
export function draw(/** @type {string} */ name, /** @type {Drawing} */ { config, summary, table, empty }) {
  const figureNode = $(`[data-chart="${name}"]`);
  const plot = $('.plot', figureNode);
  const drawn = charts.get(name);
  if (!empty && drawn && /** @type {{ type?: string }} */ (drawn.config).type === config.type) {
    $('.alt', figureNode).remove();
    drawn.canvas.setAttribute('aria-label', summary);
    drawn.canvas.style.cursor = '';
    drawn.data = config.data;
    drawn.options = config.options ?? {};
    drawn.resize();
    drawn.update('none');
  } else {
    undraw(name, figureNode);
    if (empty) return plot.replaceChildren(el('p', { className: 'empty', textContent: empty }));
    const canvas = el('canvas', { role: 'img' });
    canvas.setAttribute('aria-label', summary);
    plot.replaceChildren(canvas);
    charts.set(name, new Chart(canvas, config));
  }
  // A table ignores a width of 1px, so the hidden one sits in a block that does not.
  figureNode.append(
    el('div', { className: 'alt visually-hidden' }, dataTable($('figcaption', figureNode).textContent ?? '', table.head, table.rows)),
  );
  figureNode.setAttribute('data-drawn', 'true');
}

/** Takes a figure's chart and its hidden table away; the plot keeps the canvas until the caller replaces it. */
function undraw(/** @type {string} */ name, /** @type {HTMLElement} */ figureNode) {
  charts.get(name)?.destroy();
  charts.delete(name);
  figureNode.querySelector('.alt')?.remove();
  figureNode.removeAttribute('data-drawn');
}

/** Says a chart could not be read. */
export function failed(/** @type {string} */ name, /** @type {string} */ why) {
  const figureNode = $(`[data-chart="${name}"]`);
  undraw(name, figureNode);
  $('.plot', figureNode).replaceChildren(el('p', { className: 'failed', textContent: `Could not be read: ${why}.` }));
}

/** Sizes a chart again, once the panel it is in is shown. */
export const resized = (/** @type {string} */ name) => charts.get(name)?.resize();

/** Every chart away, when the dashboard signs out. */
export function forgetCharts() {
  for (const chart of charts.values()) chart.destroy();
  charts.clear();
}

/** A bar chart's configuration, its y axis from zero in whole numbers. */
export const bars = (
  /** @type {(string | string[])[]} */ labels,
  /** @type {import('chart.js').ChartDataset<'bar'>[]} */ datasets,
  /** @type {import('chart.js').ChartOptions<'bar'>} */ options = {},
) =>
  /** @type {import('chart.js').ChartConfiguration} */ ({
    type: 'bar',
    data: { labels, datasets },
    options: {
      plugins: { legend: { display: datasets.length > 1 } },
      scales: { y: { beginAtZero: true, ticks: { precision: 0 } } },
      ...options,
    },
  });

export const sum = (/** @type {number[]} */ values) => values.reduce((total, value) => total + value, 0);
