/** One mail to one recipient: figures of many people, never a visitor's. */
export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Sent as `List-Unsubscribe` too, so a mail client can offer it. */
  unsubscribe?: string;
}

/** A send that could not be made says why, so its claim is tried again by a later run. */
export type Sent = { ok: true } | { ok: false; reason: string };

export interface Mailer {
  /** Where mail goes: "Azure Communication Services Email", or the outbox folder. */
  readonly source: string;
  send(mail: Mail): Promise<Sent>;
}
