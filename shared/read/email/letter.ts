import type { Mail } from '../../core/ports/mailer';

const escaped = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A paragraph of lines, or a table of rows. */
export type Block = { lines: string[] } | { rows: string[][]; head: string[] };

export interface Letter {
  to: string;
  subject: string;
  blocks: Block[];
  /** A link the mail is for, such as the confirmation. */
  action?: { words: string; url: string };
  /** Every report and alert carries one. */
  unsubscribe?: string;
}

const textOf = (block: Block) =>
  'lines' in block ? block.lines.join('\n') : [block.head, ...block.rows].map((row) => row.join('  ·  ')).join('\n');

const htmlOf = (block: Block) =>
  'lines' in block
    ? `<p>${block.lines.map(escaped).join('<br>')}</p>`
    : `<table><tr>${block.head.map((cell) => `<th align="left">${escaped(cell)}</th>`).join('')}</tr>${block.rows
        .map((row) => `<tr>${row.map((cell) => `<td>${escaped(cell)}</td>`).join('')}</tr>`)
        .join('')}</table>`;

/** Plain text and the same as simple HTML. */
export function mailOf(letter: Letter): Mail {
  const action = letter.action;
  const footer = letter.unsubscribe === undefined ? [] : [`Unsubscribe: ${letter.unsubscribe}`];
  const text = [...letter.blocks.map(textOf), ...(action ? [`${action.words}: ${action.url}`] : []), ...footer].join('\n\n');
  const html = [
    `<!doctype html><html><body><h1>${escaped(letter.subject)}</h1>`,
    ...letter.blocks.map(htmlOf),
    action ? `<p><a href="${escaped(action.url)}">${escaped(action.words)}</a></p>` : '',
    letter.unsubscribe === undefined ? '' : `<p><small><a href="${escaped(letter.unsubscribe)}">Unsubscribe</a></small></p>`,
    '</body></html>',
  ].join('');
  return {
    to: letter.to,
    subject: letter.subject,
    text,
    html,
    ...(letter.unsubscribe === undefined ? {} : { unsubscribe: letter.unsubscribe }),
  };
}
