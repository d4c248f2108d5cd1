import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { errorLine } from '../../shared/core/errors';
import type { Clock } from '../../shared/core/ports/clock';
import type { Mail, Mailer } from '../../shared/core/ports/mailer';

/** Each mail as `<instant>-<n>.json` (to, subject, text) beside `<instant>-<n>.html`, for the local stack. */
export function outboxMailer(folder: string, clock: Clock): Mailer {
  let count = 0;
  return {
    source: `the outbox folder ${folder}`,
    async send(mail) {
      try {
        await mkdir(folder, { recursive: true });
        count += 1;
        const name = `${clock.now().toISOString().replace(/[:.]/g, '-')}-${process.pid}-${count}`;
        const { html, ...rest } = mail;
        await writeFile(join(folder, `${name}.json`), JSON.stringify(rest, null, 2));
        await writeFile(join(folder, `${name}.html`), html);
        return { ok: true };
      } catch (error) {
        return { ok: false, reason: errorLine(error) };
      }
    },
  };
}

/** The outbox's mails, oldest first, each with its name. */
export async function outboxMails(folder: string): Promise<Array<Mail & { name: string }>> {
  const files = await readdir(folder).catch(() => [] as string[]);
  const names = files.filter((file) => file.endsWith('.json')).sort();
  return Promise.all(
    names.map(async (file) => {
      const name = file.slice(0, -'.json'.length);
      const mail = JSON.parse(await readFile(join(folder, file), 'utf8')) as Omit<Mail, 'html'>;
      return { ...mail, name, html: await readFile(join(folder, `${name}.html`), 'utf8') };
    }),
  );
}
