/** Outgoing e-mail as the engine sees it; src/mail provides it over SMTP. */
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
