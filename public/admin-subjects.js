// @ts-check
// Subjects, all time (not of the period): each subject a page names, most scanned first.
import { $, el, emptyNote, failedNote } from './admin-dom.js';
import { panelSection } from './admin-panel.js';
import { showRanked } from './admin-ranked.js';
import { state } from './admin-state.js';
import { isDay, shortDay } from './admin-words.js';

export function showSubjects() {
  const read = state.answers.subjects;
  const body = $('#subjects-body');
  if (!read) return body.replaceChildren(emptyNote('Being read…'));
  if (!read.ok) return body.replaceChildren(failedNote(read.why));
  const subjects = read.body.subjects;
  if (subjects.length === 0)
    return body.replaceChildren(emptyNote('No subject has been seen yet: a page names one with data-subject on the snippet.'));
  // The day in the dashboard's day words, as every date it writes ("20 Oct 12:00").
  const lastScan = (/** @type {string | null} */ at) =>
    at && isDay(at.slice(0, 10)) ? `${shortDay(at.slice(0, 10), state.appToday)} ${at.slice(11, 16)}` : '–';
  showRanked(
    body,
    {
      id: 'subjects-table',
      caption: 'Subjects, most scanned first, all time',
      head: ['Subject', 'Scans', 'Unique', 'Repeat', 'Bots', 'Yours', 'Last scan (UTC)'],
      rows: subjects.map((s) => ({ label: s.subject, values: [s.scans, s.unique, s.repeat, s.scanners, s.self, lastScan(s.last_scan)] })),
      empty: '',
      numeric: (i) => i > 0 && i < 6,
    },
    null,
  );
  if (read.body.continuation) body.append(el('p', { className: 'note', textContent: `The ${subjects.length} most scanned are shown.` }));
}

/** @type {import('./admin-panel.js').Panel} */
export const subjectsPanel = {
  markup: () =>
    panelSection({
      id: 'subjects',
      title: 'Subjects',
      note: 'all time',
      adminOnly: true,
      aboutWhat: 'About subjects',
      about:
        "Each thing a page names (data-subject on the snippet, such as a QR code's tree), most scanned first, since counting began: scans, unique visitors, repeat scans, and the scans by bots and by you, left out of the rest.",
      body: () => {
        const body = el('div', { className: 'table-wrap', id: 'subjects-body', tabIndex: 0 });
        body.setAttribute('role', 'region');
        body.setAttribute('aria-label', 'The subjects, a table');
        return body;
      },
    }),
};
