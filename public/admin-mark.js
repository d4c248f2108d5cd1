// @ts-check
// Marking a browser as yours: one link for each site allowed to send beacons, which makes that browser's pageviews your
// own visits there, never a person's.
import { $, el } from './admin-dom.js';
import { state } from './admin-state.js';

export function showMark() {
  const read = state.answers.mark;
  const list = $('#mark-links');
  if (!read) return;
  if (!read.ok) return list.replaceChildren(el('li', { className: 'failed', textContent: `Could not be read: ${read.why}.` }));
  const links = read.body.links;
  if (links.length === 0)
    return list.replaceChildren(
      el('li', {
        textContent:
          "No site may send beacons yet: give the app your site's address (SITES, or ALLOWED_ORIGINS for one site), and its link appears here.",
      }),
    );
  list.replaceChildren(
    ...links.map((link) =>
      el(
        'li',
        {},
        el('a', { href: link.mark, textContent: `Mark this browser as mine on ${link.site}`, rel: 'noreferrer' }),
        ' · ',
        el('a', { href: link.unmark, textContent: 'remove the mark', rel: 'noreferrer' }),
      ),
    ),
  );
}
