import { loadConfigOrExit, REQUIRED_IN_PRODUCTION, serviceConfigSchema } from '@decor/kit';
import { Type } from '@sinclair/typebox';

export const notificationConfigSchema = serviceConfigSchema({
  PORT: Type.Integer({ minimum: 1, maximum: 65535, default: 4106 }),
  MONGO_DB: Type.String({ pattern: '^[A-Za-z0-9_-]{1,63}$', default: 'notification' }),
  SMTP_URL: Type.String({
    pattern: '^smtps?://',
    'x-message': 'must start with smtp:// or smtps://',
    default: 'smtp://127.0.0.1:2525',
    [REQUIRED_IN_PRODUCTION]: true,
  }),
  MAIL_FROM: Type.String({ minLength: 3, default: 'Gala & Grove Event Rentals <no-reply@decor.example>' }),
  /** Where new-estimate notices and contact-form messages go. */
  STAFF_EMAIL: Type.String({
    pattern: '^[^@\\s]+@[^@\\s]+$',
    'x-message': 'must be an e-mail address',
    default: 'staff@decor.example',
  }),
  COMPANY_NAME: Type.String({ minLength: 1, default: 'Gala & Grove Event Rentals' }),
  /** The shop's IANA time zone (as the order service's): the clock e-mails tell moments by. */
  SHOP_TIME_ZONE: Type.String({
    pattern: '^(UTC|[A-Za-z_]+(/[A-Za-z0-9_+-]+)+)$',
    'x-message': 'must be an IANA time zone such as UTC or America/Denver',
    default: 'UTC',
  }),
  /** Parallel sends per worker process. */
  EMAIL_CONCURRENCY: Type.Integer({ minimum: 1, maximum: 50, default: 5 }),
  /**
   * An e-mail SMTP did not take is tried again after EMAIL_RETRY_FIRST_MS, then twice as long each
   * time up to EMAIL_RETRY_MAX_MS, for at least 24 h in all (see domain/retry-schedule.ts).
   */
  EMAIL_RETRY_FIRST_MS: Type.Integer({ minimum: 100, default: 5000 }),
  EMAIL_RETRY_MAX_MS: Type.Integer({ minimum: 1000, maximum: 6 * 3600_000, default: 3600_000 }),
  /** Contact-form messages (POST /send/info) per client address, and per sender's e-mail, per window. */
  CONTACT_MAX_PER_ADDRESS: Type.Integer({ minimum: 1, default: 10 }),
  CONTACT_MAX_PER_SENDER: Type.Integer({ minimum: 1, default: 3 }),
  CONTACT_WINDOW_SECONDS: Type.Integer({ minimum: 1, default: 3600 }),
  /**
   * The shared object store (S3) files are attached from (issue 30: the signed agreements the order
   * service stores); defaults match the local S3 emulator of `npm start`.
   */
  S3_ENDPOINT: Type.String({
    pattern: '^https?://',
    default: 'http://127.0.0.1:4569',
    [REQUIRED_IN_PRODUCTION]: true,
  }),
  S3_BUCKET: Type.String({ pattern: '^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$', default: 'decor-images' }),
  S3_REGION: Type.String({ minLength: 1, default: 'us-east-1' }),
  S3_ACCESS_KEY_ID: Type.String({ minLength: 1, default: 'S3RVER', [REQUIRED_IN_PRODUCTION]: true }),
  S3_SECRET_ACCESS_KEY: Type.String({ minLength: 1, default: 'S3RVER', [REQUIRED_IN_PRODUCTION]: true }),
});

export type NotificationConfig = ReturnType<typeof loadNotificationConfig>;

export function loadNotificationConfig(env: Record<string, string | undefined> = process.env) {
  return loadConfigOrExit(notificationConfigSchema, env);
}
