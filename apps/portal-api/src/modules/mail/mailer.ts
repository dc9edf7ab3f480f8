import fs from 'node:fs';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import type { PortalDb } from '../../db/client';
import { mailOutbox } from '../../db/schema';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** Values (reset tokens) kept out of the log and the database copy of the message. */
  secrets?: string[];
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  /** Where the embedded transport writes messages (null with SMTP). */
  outboxDir: string | null;
}

export interface MailerOptions {
  DATA_DIR: string;
  SMTP_URL?: string | undefined;
  MAIL_FROM: string;
}

const redact = (text: string, secrets: string[] = []) =>
  secrets.reduce((acc, secret) => acc.replaceAll(secret, '[redacted]'), text);

/**
 * The mailer: SMTP (nodemailer) when SMTP_URL is set, otherwise each message becomes a file in
 * `${DATA_DIR}/outbox` (the embedded default), and a line in the log. Every message is also recorded
 * in `mail_outbox` with its secrets redacted.
 */
export function createMailer(db: PortalDb, options: MailerOptions, log: FastifyBaseLogger): Mailer {
  const outboxDir = options.SMTP_URL ? null : path.join(options.DATA_DIR, 'outbox');
  const transport = options.SMTP_URL ? nodemailer.createTransport(options.SMTP_URL) : null;
  return {
    outboxDir,
    async send(message) {
      let file: string | null = null;
      let error: string | null = null;
      if (transport) {
        try {
          await transport.sendMail({
            from: options.MAIL_FROM,
            to: message.to,
            subject: message.subject,
            text: message.text,
          });
        } catch (caught) {
          error = (caught as Error).message;
          log.error({ to: message.to, subject: message.subject, err: caught }, 'mail not sent');
        }
      } else if (outboxDir) {
        fs.mkdirSync(outboxDir, { recursive: true });
        const stamp = new Date().toISOString().replace(/[:.]/g, '-');
        file = path.join(outboxDir, `${stamp}-${Math.random().toString(36).slice(2, 8)}.eml`);
        const eml = [
          `From: ${options.MAIL_FROM}`,
          `To: ${message.to}`,
          `Subject: ${message.subject}`,
          `Date: ${new Date().toUTCString()}`,
          'Content-Type: text/plain; charset=utf-8',
          '',
          message.text,
          '',
        ].join('\r\n');
        fs.writeFileSync(file, eml, { mode: 0o600 });
      }
      log.info(
        {
          to: message.to,
          subject: message.subject,
          file,
          transport: transport ? 'smtp' : 'outbox',
        },
        error ? 'mail failed' : 'mail sent',
      );
      await db.insert(mailOutbox).values({
        to: message.to,
        subject: message.subject,
        text: redact(message.text, message.secrets),
        transport: transport ? 'smtp' : 'outbox',
        file,
        sentAt: error ? null : new Date(),
        error,
      });
    },
  };
}
