import type { EmailClient } from '@azure/communication-email';
import type { TokenCredential } from '@azure/identity';
import { errorLine } from '../shared/core/errors';
import type { Mailer } from '../shared/core/ports/mailer';

/** Azure Communication Services Email through the app's managed identity; a send accepted by the service is sent. */
export function azureMailer(endpoint: string, sender: string, credential: TokenCredential): Mailer {
  // Loaded on the first mail, so an instance that sends none never holds the SDK.
  let client: Promise<EmailClient> | null = null;
  const clientOf = () =>
    (client ??= import('@azure/communication-email').then(({ EmailClient: Client }) => new Client(endpoint, credential)));
  return {
    source: 'Azure Communication Services Email',
    async send(mail) {
      try {
        await (
          await clientOf()
        ).beginSend({
          senderAddress: sender,
          recipients: { to: [{ address: mail.to }] },
          content: { subject: mail.subject, plainText: mail.text, html: mail.html },
          disableUserEngagementTracking: true,
          ...(mail.unsubscribe === undefined ? {} : { headers: { 'List-Unsubscribe': `<${mail.unsubscribe}>` } }),
        });
        return { ok: true };
      } catch (error) {
        return { ok: false, reason: errorLine(error) };
      }
    },
  };
}
