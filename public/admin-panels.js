// @ts-check
// The grid's panels, registered in its order: each module makes its own markup, and a panel of the period draws itself
// from the card, so a new panel is its module and one line here.
import { $ } from './admin-dom.js';
import { countriesPanel } from './admin-countries.js';
import { devicesPanel } from './admin-devices.js';
import { goalsPanel } from './admin-goals.js';
import { pagesPanel } from './admin-pages.js';
import { sourcesPanel } from './admin-sources.js';
import { nowPanel } from './admin-now.js';
import { subjectsPanel } from './admin-subjects.js';
import { allTimePanel } from './admin-all-time.js';

/** @type {ReadonlyArray<import('./admin-panel.js').Panel>} */
export const PANELS = [pagesPanel, sourcesPanel, countriesPanel, devicesPanel, goalsPanel, nowPanel, subjectsPanel, allTimePanel];

/** Puts the panels in the grid. */
export const mountPanels = () => $('#panels').replaceChildren(...PANELS.map((panel) => panel.markup()));
