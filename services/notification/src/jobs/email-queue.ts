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
import {
  EMAIL_RETRY_SPAN_MS,
  type RetrySchedule,
  retryAttempts,
  retryDelayMs,
} from '../domain/retry-schedule';
import type { StoredFiles } from './stored-files';

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

/** 5 s, 10 s, 20 s, … up to an hour between attempts, for at least a day (34 attempts). */
export const DEFAULT_EMAIL_RETRY: RetrySchedule = {
  firstMs: 5000,
  maxMs: 3600_000,
  spanMs: EMAIL_RETRY_SPAN_MS,
};

/** The schedule from the settings (only its first steps change; the day stays). */
export const emailRetry = (config: { EMAIL_RETRY_FIRST_MS: number; EMAIL_RETRY_MAX_MS: number }) => ({
  firstMs: config.EMAIL_RETRY_FIRST_MS,
  maxMs: config.EMAIL_RETRY_MAX_MS,
  spanMs: EMAIL_RETRY_SPAN_MS,
});

export function emailQueue(
  connection: Redis,
  prefix: string,
  retry = DEFAULT_EMAIL_RETRY,
  logger?: KitLogger,
): Queue<EmailJob> {
  return createQueue<EmailJob>(EMAIL_QUEUE, {
    connection,
    prefix,
    logger,
    // The waits themselves come from the worker's backoff strategy (`emailWorker`).
    defaultJobOptions: { attempts: retryAttempts(retry), backoff: { type: 'custom' } },
  });
}

/** Set once SMTP took the job's message: a later run of the same job (a crash before BullMQ marked it done) sends nothing. */
const sentKey = (prefix: string, jobId: string | undefined) => `${prefix}:email-sent:${jobId}`;
const SENT_KEPT_SECONDS = 7 * 24 * 3600; // as long as completed jobs (and their ids) are kept

/**
 * How long after its event an e-mail job's id surely still stops a second copy: a day, well inside
 * the week completed jobs are kept (failed ones are never removed). The consumer runs a redelivered
 * event younger than this again without looking it up (`idempotentForMs`); the job id makes it a no-op.
 */
export const EMAIL_JOB_ID_HOLDS_MS = 24 * 3600_000;

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
  retry?: RetrySchedule;
  /** Where attachments are read from at send time (e-mails without attachments need none). */
  files?: StoredFiles;
}

/** The attachments' bytes; a file missing from the store fails the job for good (it will not come back). */
async function attachmentsOf(email: Email, files: StoredFiles | undefined) {
  if (!email.attachments?.length) return undefined;
  if (!files) throw new PermanentJobError('this worker has no object store to read attachments from');
  return Promise.all(
    email.attachments.map(async (a) => {
      const content = await files.get(a.key);
      if (!content) throw new PermanentJobError(`attachment ${a.key} is not in the object store`);
      return { filename: a.filename, contentType: a.contentType, content };
    }),
  );
}

export function emailWorker(opts: EmailWorkerOptions): JobWorker<EmailJob> {
  const transport = nodemailer.createTransport(smtpOptions(opts.smtpUrl));
  const retry = opts.retry ?? DEFAULT_EMAIL_RETRY;
  return createWorker<EmailJob>(
    EMAIL_QUEUE,
    async (job) => {
      const sent = sentKey(opts.prefix, job.id);
      if ((await opts.connection.exists(sent)) === 1) return;
      const { resetLink } = job.data;
      const email = resetLink ? withResetToken(job.data.email, opts.jwtSecret, resetLink) : job.data.email;
      const attachments = await attachmentsOf(email, opts.files);
      try {
        await transport.sendMail({
          from: opts.from,
          to: email.to,
          subject: email.subject,
          text: email.text,
          html: email.html,
          replyTo: email.replyTo,
          ...(attachments ? { attachments } : {}),
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
      // Best effort: if Redis fails here, the job is retried and the stable Message-ID is the last guard.
      await opts.connection.set(sent, '1', 'EX', SENT_KEPT_SECONDS).catch((err) => {
        opts.logger.warn({ err, jobId: job.id }, 'could not mark the e-mail as sent');
      });
    },
    {
      connection: opts.connection,
      prefix: opts.prefix,
      concurrency: opts.concurrency,
      logger: opts.logger,
      backoffStrategy: (failedAttempts) => retryDelayMs(retry, failedAttempts),
    },
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
