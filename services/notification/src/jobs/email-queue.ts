import {
  createQueue,
  createWorker,
  enqueueOnce,
  type JobWorker,
  type KitLogger,
  PermanentJobError,
  signResetToken,
} from '@decor/kit';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import nodemailer from 'nodemailer';
import type { Email } from '../domain/email';

export const EMAIL_QUEUE = 'email';

/**
 * Stands for the reset link's token in the rendered e-mail (`<site>/reset/<placeholder>`) until the
 * worker sends it: the token is minted then, from `resetLink`, so no link sits in Kafka or in Redis.
 */
export const RESET_TOKEN_PLACEHOLDER = '__DECOR_RESET_TOKEN__';

/** The site's page that takes a reset link's token (also the welcome e-mail's set-password link). */
export const resetPageUrl = (baseUrl: string, token: string) =>
  `${baseUrl.replace(/\/$/, '')}/reset/${encodeURIComponent(token)}`;

export interface ResetLinkRef {
  userId: string;
  /** The pending reset's id (the user service keeps its hash). */
  resetId: string;
  expiresAt: string;
}

export interface EmailJob {
  email: Email;
  /** The e-mail carries a reset (or set-password) link: minted at send time. */
  resetLink?: ResetLinkRef;
}

/** The e-mail with the minted token in place (a JWT in base64url: nothing to escape in HTML). */
export function withResetToken(email: Email, secret: string, ref: ResetLinkRef): Email {
  const token = encodeURIComponent(signResetToken(secret, ref));
  const put = (text: string) => text.split(RESET_TOKEN_PLACEHOLDER).join(token);
  return { ...email, text: put(email.text), html: put(email.html) };
}

export function emailQueue(connection: Redis, prefix: string): Queue<EmailJob> {
  return createQueue<EmailJob>(EMAIL_QUEUE, { connection, prefix });
}

/** One e-mail per cause: the job id is the cause (e.g. the event id), so a redelivered event sends nothing new. */
export function enqueueEmail(
  queue: Queue<EmailJob>,
  cause: string,
  email: Email,
  resetLink?: ResetLinkRef,
): Promise<string> {
  return enqueueOnce(queue, 'send', resetLink ? { email, resetLink } : { email }, {
    jobId: `email.${cause}`,
  });
}

export interface EmailWorkerOptions {
  connection: Redis;
  prefix: string;
  smtpUrl: string;
  from: string;
  concurrency: number;
  logger: KitLogger;
  /** Mints reset links' tokens (the shared JWT secret). */
  jwtSecret: string;
}

export function emailWorker(opts: EmailWorkerOptions): JobWorker<EmailJob> {
  const transport = nodemailer.createTransport(smtpOptions(opts.smtpUrl));
  return createWorker<EmailJob>(
    EMAIL_QUEUE,
    async (job) => {
      const { resetLink } = job.data;
      const email = resetLink ? withResetToken(job.data.email, opts.jwtSecret, resetLink) : job.data.email;
      try {
        await transport.sendMail({
          from: opts.from,
          to: email.to,
          subject: email.subject,
          text: email.text,
          html: email.html,
          replyTo: email.replyTo,
          // A stable Message-ID per job lets mail servers drop a resend after a crash mid-send.
          messageId: `<${job.id}@decor.local>`,
        });
      } catch (err) {
        // 5xx: the server refused this message for good (bad address, policy); retrying cannot help.
        const code = (err as { responseCode?: number }).responseCode;
        if (code !== undefined && code >= 500)
          throw new PermanentJobError(`SMTP refused the message (${code}): ${(err as Error).message}`);
        throw err;
      }
    },
    { connection: opts.connection, prefix: opts.prefix, concurrency: opts.concurrency, logger: opts.logger },
  );
}

function smtpOptions(smtpUrl: string) {
  const url = new URL(smtpUrl);
  const secure = url.protocol === 'smtps:';
  return {
    host: url.hostname,
    port: Number(url.port) || (secure ? 465 : 25),
    secure,
    auth: url.username
      ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) }
      : undefined,
    // Fail an attempt quickly when the server is down; the job's backoff decides when to try again.
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  };
}
