/**
 * Where each piece of local infrastructure answers, as jest's global setup (infra/stack/test-support)
 * hands it to the test workers: a fact that crosses a process, written by @decor/stack and read by
 * @decor/kit/testing (which does not depend on the stack). Import as '@decor/contracts/test-endpoints'
 * (test code and the stack only; never from a browser).
 */
export interface InfraEndpoints {
  /** 'mongodb://127.0.0.1:PORT' (no db name; each service/test picks a db). */
  mongoUrl: string;
  /** ['127.0.0.1:PORT'] */
  kafkaBrokers: string[];
  /** 'redis://127.0.0.1:6379' */
  redisUrl: string;
  s3: { endpoint: string; region: string; bucket: string; accessKeyId: string; secretAccessKey: string };
  smtp: { host: string; port: number };
  /** HTTP base of the mail catcher; Mailpit-compatible subset: GET /api/v1/messages, GET /api/v1/message/{ID}, DELETE /api/v1/messages */
  mailApiUrl: string;
  /** The QuickBooks Online emulator (@decor/qbo-emulator): OAuth + Accounting API base URL, its client and demo company. */
  qbo: { url: string; clientId: string; clientSecret: string; realmId: string };
  /**
   * The payments emulator (@decor/payments-emulator), Stripe's API for the `stripe` client: its URL,
   * the local keys (any sk_test_… works there, each key its own account) and the webhook secret of the
   * endpoint npm start configures (tests add their own endpoints through its control API).
   */
  payments: { url: string; secretKey: string; publishableKey: string; webhookSecret: string };
}

/** The env variable through which jest's global setup hands the endpoints to the test workers. */
export const TEST_ENDPOINTS_ENV = 'DECOR_TEST_ENDPOINTS';

/** In a jest test file: the endpoints the global setup started (from process.env.DECOR_TEST_ENDPOINTS). */
export function testEndpoints(): InfraEndpoints {
  const raw = process.env[TEST_ENDPOINTS_ENV];
  if (!raw) {
    throw new Error(
      `${TEST_ENDPOINTS_ENV} is not set: run tests through jest with the repo's config ` +
        '(its globalSetup infra/stack/test-support/global-setup.ts starts the servers)',
    );
  }
  return JSON.parse(raw) as InfraEndpoints;
}
