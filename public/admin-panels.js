// @ts-check
// The period's panels, registered in the grid's order: each module makes its own markup and draws itself from the card,
// so a new panel is its module and one line here.
import { $ } from './admin-dom.js';
import { countriesPanel } from './admin-countries.js';
import { devicesPanel } from './admin-devices.js';
import { goalsPanel } from './admin-goals.js';
import { pagesPanel } from './admin-pages.js';
import { sourcesPanel } from './admin-sources.js';

/** @type {ReadonlyArray<import('./admin-panel.js').Panel>} */
export const PERIOD_PANELS = [pagesPanel, sourcesPanel, countriesPanel, devicesPanel, goalsPanel];

/** Puts the panels at the head of the grid, before the panels not of the period. */
export const mountPanels = () => $('#panels').prepend(...PERIOD_PANELS.map((panel) => panel.markup()));
