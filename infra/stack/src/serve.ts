/**
 * Runs the S3 server or the mail catcher as its own process (used by `npm start`, so each has
 * its own prefixed log and can be stopped on its own):
 *   node --import tsx infra/stack/src/serve.ts s3 '{"port":4569,"directory":"…","bucket":"…"}'
 *   node --import tsx infra/stack/src/serve.ts mail '{"smtpPort":2525,"apiPort":8025,"storeFile":"…"}'
 *   node --import tsx infra/stack/src/serve.ts qbo '{"port":4580,"dataFile":"…","smtp":{…},"clientId":"…","clientSecret":"…"}'
 *   node --import tsx infra/stack/src/serve.ts payments '{"port":4590,"dataFile":"…","webhookEndpoints":[{"url":"…","secret":"whsec_…"}]}'
 * Prints one line starting with "ready " once listening; exits cleanly on SIGTERM/SIGINT.
 */

// Each kind loads only its own server: every one of these processes starts at once with npm start,
// and compiling the others' code too made them slower to be ready on a busy machine.
import type { PaymentsEmulatorOptions } from '@decor/payments-emulator';
import type { QboEmulatorOptions } from '@decor/qbo-emulator';
import type { MailCatcherOptions } from './mail';
import type { S3ServerOptions } from './s3';

async function main(): Promise<void> {
  const [kind, json = '{}'] = process.argv.slice(2);
  let close: () => Promise<void>;
  if (kind === 's3') {
    const options = JSON.parse(json) as S3ServerOptions;
    const { startS3Server } = require('./s3') as typeof import('./s3');
    const s3 = await startS3Server(options);
    close = s3.close;
    console.log(`ready ${s3.endpoint} bucket=${options.bucket} dir=${options.directory}`);
  } else if (kind === 'mail') {
    const { startMailCatcher } = require('./mail') as typeof import('./mail');
    const mail = await startMailCatcher(JSON.parse(json) as MailCatcherOptions);
    close = mail.close;
    console.log(`ready smtp=127.0.0.1:${mail.smtpPort} api=http://127.0.0.1:${mail.apiPort}`);
  } else if (kind === 'qbo') {
    const options = JSON.parse(json) as QboEmulatorOptions;
    const { startQboEmulator } = await import('@decor/qbo-emulator');
    const qbo = await startQboEmulator(options);
    close = qbo.close;
    console.log(`ready ${qbo.url} demo realm ${qbo.realmId} data=${options.dataFile ?? 'memory'}`);
  } else if (kind === 'payments') {
    const options = JSON.parse(json) as PaymentsEmulatorOptions;
    const { startPaymentsEmulator } = await import('@decor/payments-emulator');
    const payments = await startPaymentsEmulator(options);
    close = payments.close;
    const hooks = options.webhookEndpoints?.map((w) => w.url).join(', ') || 'none';
    console.log(`ready ${payments.url} data=${options.dataFile ?? 'memory'} webhooks=${hooks}`);
  } else {
    throw new Error(`usage: serve.ts <s3|mail|qbo|payments> <json options> (got '${kind}')`);
  }
  const stop = () => {
    close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((err: Error) => {
  console.error(err.message);
  process.exit(1);
});
