/**
 * Outgoing e-mail over SMTP with nodemailer, configured by one URL
 * (`--smtp URL` or $ACCT_SMTP_URL), for example
 * smtp://user:pass@mail.example.com:587 or smtps://…:465. The sender address
 * is the URL's `from` parameter, else the organisation's e-mail, else
 * acct@localhost; replies go to the organisation's e-mail.
 */
import nodemailer from 'nodemailer';
import { AppError } from '../engine/errors.js';
import type { Mailer, MailMessage } from '../engine/mail.js';

/** How long a connection, the server's greeting and a silence may take; the URL may set others (?socketTimeout=ms). */
const timeouts = { connectionTimeout: 30_000, greetingTimeout: 30_000, socketTimeout: 60_000 } as const;

export function smtpMailer(url: string): Mailer {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new AppError('validation_error', `--smtp must be a URL such as smtp://user:pass@host:587, not ${url}`, 'smtp');
  }
  if (parsed.protocol !== 'smtp:' && parsed.protocol !== 'smtps:') {
    throw new AppError('validation_error', `--smtp must be an smtp:// or smtps:// URL, not ${parsed.protocol}`, 'smtp');
  }
  const from = parsed.searchParams.get('from');
  parsed.searchParams.delete('from');
  // nodemailer waits up to 10 minutes on a silent server; an Idempotency-Key reservation is taken over after 5.
  const transport = nodemailer.createTransport({ url: parsed.toString(), ...timeouts });
  return {
    async send(message: MailMessage) {
      const address = from ?? message.replyTo ?? 'acct@localhost';
      await transport.sendMail({
        from: { name: message.fromName, address },
        to: message.to,
        ...(message.replyTo ? { replyTo: message.replyTo } : {}),
        subject: message.subject,
        text: message.text,
        attachments: message.attachments.map((a) => ({ filename: a.filename, contentType: a.contentType, content: Buffer.from(a.content) })),
      });
    },
  };
}
