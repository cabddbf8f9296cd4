/**
 * Runs the S3 server or the mail catcher as its own process (used by `npm start`, so each has
 * its own prefixed log and can be stopped on its own):
 *   node --import tsx infra/stack/src/serve.ts s3 '{"port":4569,"directory":"…","bucket":"…"}'
 *   node --import tsx infra/stack/src/serve.ts mail '{"smtpPort":2525,"apiPort":8025,"storeFile":"…"}'
 *   node --import tsx infra/stack/src/serve.ts qbo '{"port":4580,"dataFile":"…","smtp":{…},"clientId":"…","clientSecret":"…"}'
 *   node --import tsx infra/stack/src/serve.ts payments '{"port":4590,"dataFile":"…","webhookEndpoints":[{"url":"…","secret":"whsec_…"}]}'
 * Prints one line starting with "ready " once listening; exits cleanly on SIGTERM/SIGINT.
 */

import { type PaymentsEmulatorOptions, startPaymentsEmulator } from '@decor/payments-emulator';
import { type QboEmulatorOptions, startQboEmulator } from '@decor/qbo-emulator';
import { type MailCatcherOptions, startMailCatcher } from './mail';
import { type S3ServerOptions, startS3Server } from './s3';

async function main(): Promise<void> {
  const [kind, json = '{}'] = process.argv.slice(2);
  let close: () => Promise<void>;
  if (kind === 's3') {
    const options = JSON.parse(json) as S3ServerOptions;
    const s3 = await startS3Server(options);
    close = s3.close;
    console.log(`ready ${s3.endpoint} bucket=${options.bucket} dir=${options.directory}`);
  } else if (kind === 'mail') {
    const mail = await startMailCatcher(JSON.parse(json) as MailCatcherOptions);
    close = mail.close;
    console.log(`ready smtp=127.0.0.1:${mail.smtpPort} api=http://127.0.0.1:${mail.apiPort}`);
  } else if (kind === 'qbo') {
    const options = JSON.parse(json) as QboEmulatorOptions;
    const qbo = await startQboEmulator(options);
    close = qbo.close;
    console.log(`ready ${qbo.url} demo realm ${qbo.realmId} data=${options.dataFile ?? 'memory'}`);
  } else if (kind === 'payments') {
    const options = JSON.parse(json) as PaymentsEmulatorOptions;
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
