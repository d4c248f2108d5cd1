import type { HttpResponseInit } from '@azure/functions';
import { outboxMails } from '../adapters/files/outbox';

const escaped = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const page = (title: string, body: string): HttpResponseInit => ({
  status: 200,
  headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
  body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escaped(title)}</title></head><body>${body}</body></html>`,
});

/** `/admin/outbox` lists the mail the local stack wrote, newest first; `/admin/outbox/<name>` shows one as sent. */
export async function outboxAnswer(folder: string, name: string | undefined): Promise<HttpResponseInit> {
  const mails = await outboxMails(folder);
  if (name === undefined) {
    const rows = [...mails]
      .reverse()
      .map((mail) => `<li><a href="/admin/outbox/${escaped(mail.name)}">${escaped(mail.subject)}</a> to ${escaped(mail.to)}</li>`);
    const list = rows.length === 0 ? '<p>No mail yet.</p>' : `<ul>${rows.join('')}</ul>`;
    return page('Outbox', `<h1>Outbox</h1><p>Mail written to ${escaped(folder)}.</p>${list}`);
  }
  const mail = mails.find((one) => one.name === name);
  if (mail === undefined) return { status: 404, jsonBody: { error: { code: 'not_found', message: `no mail named ${name}` } } };
  return { status: 200, headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }, body: mail.html };
}
