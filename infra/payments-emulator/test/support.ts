/** Test helpers: an emulator of the file's own, the real `stripe` client pointed at it, a webhook receiver. */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Stripe from 'stripe';
import { type PaymentsEmulator, type PaymentsEmulatorOptions, startPaymentsEmulator } from '../src';

export interface Started {
  emulator: PaymentsEmulator;
  dataFile: string;
  stop(): Promise<void>;
}

/** An emulator with a data file in a fresh temp dir (removed on stop). */
export async function startEmulator(opts: Partial<PaymentsEmulatorOptions> = {}): Promise<Started> {
  const dir = mkdtempSync(join(tmpdir(), 'payments-emulator-'));
  const dataFile = join(dir, 'payments.json');
  const emulator = await startPaymentsEmulator({ port: 0, dataFile, ...opts });
  return {
    emulator,
    dataFile,
    stop: async () => {
      await emulator.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A secret key of the test's own: each key sees only its own PaymentIntents (like a Stripe account). */
export const newSecretKey = () => `sk_test_${randomBytes(12).toString('hex')}`;

/** The real client, as the order service will make it, pointed at the emulator. */
export function stripeAt(url: string, key = newSecretKey(), maxNetworkRetries = 0): Stripe {
  const { hostname, port } = new URL(url);
  return new Stripe(key, { host: hostname, port: Number(port), protocol: 'http', maxNetworkRetries });
}

export interface Received {
  body: string;
  headers: IncomingHttpHeaders;
}

/** An HTTP server that records each POST; `answer` decides its status (default 200). */
export async function webhookReceiver(answer: (n: number) => number = () => 200) {
  const received: Received[] = [];
  let count = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ body: Buffer.concat(chunks).toString('utf8'), headers: req.headers });
      res.statusCode = answer(++count);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/api/payments/webhook`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Polls until `check` returns a value (or throws after `ms`). */
export async function eventually<T>(check: () => T | undefined | false, ms = 5000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 25));
  }
}
