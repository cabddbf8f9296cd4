import {
  createQueue,
  createWorker,
  enqueueOnce,
  type JobWorker,
  type KitLogger,
  PermanentJobError,
} from '@decor/kit';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import nodemailer from 'nodemailer';
import type { Email } from '../domain/email';

export const EMAIL_QUEUE = 'email';

export interface EmailJob {
  email: Email;
}

export function emailQueue(connection: Redis, prefix: string): Queue<EmailJob> {
  return createQueue<EmailJob>(EMAIL_QUEUE, { connection, prefix });
}

/** One e-mail per cause: the job id is the cause (e.g. the event id), so a redelivered event sends nothing new. */
export function enqueueEmail(queue: Queue<EmailJob>, cause: string, email: Email): Promise<string> {
  return enqueueOnce(queue, 'send', { email }, { jobId: `email.${cause}` });
}

export interface EmailWorkerOptions {
  connection: Redis;
  prefix: string;
  smtpUrl: string;
  from: string;
  concurrency: number;
  logger: KitLogger;
}

export function emailWorker(opts: EmailWorkerOptions): JobWorker<EmailJob> {
  const transport = nodemailer.createTransport(smtpOptions(opts.smtpUrl));
  return createWorker<EmailJob>(
    EMAIL_QUEUE,
    async (job) => {
      const { email } = job.data;
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
