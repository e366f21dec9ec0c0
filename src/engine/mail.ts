/** Outgoing e-mail as the engine sees it; src/mail provides it over SMTP. */
import { assertOutsideTransaction } from './external.js';

export interface MailAttachment {
  readonly filename: string;
  readonly contentType: string;
  readonly content: Uint8Array;
}

export interface MailMessage {
  readonly to: string;
  readonly replyTo?: string | null;
  readonly fromName: string;
  readonly subject: string;
  readonly text: string;
  readonly attachments: readonly MailAttachment[];
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/** Send a message, never from inside a write transaction (see external.ts). */
export async function sendMail(mailer: Mailer, message: MailMessage): Promise<void> {
  assertOutsideTransaction('sending e-mail');
  await mailer.send(message);
}
