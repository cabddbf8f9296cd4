/**
 * Issue 30: the acceptance's confirmation e-mails, from the events the real order service publishes.
 * The order service (its agreement job storing the PDF in the test infra's S3) and this service
 * (with its worker reading the PDF back from S3) run side by side on this file's topics; the test
 * plays the user, cart and accounting-sync services. No deposit is due (the settings say none).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import {
  CartChanged,
  DEFAULT_AGREEMENT_TEXT,
  type EventContract,
  ProductUpserted,
  QboRecordSynced,
  UserCreated,
} from '@decor/contracts';
import { newEvent, type RunningService, type StartedService, startService } from '@decor/kit';
import { call, consumerCaughtUp, eventually, RUN_ID, serviceEnv } from '@decor/kit/testing';
import {
  address,
  type CaughtMail,
  mailTo,
  type Notification,
  publish,
  STAFF,
  startNotification,
  startWorker,
  stopAndClean,
} from '@decor/notification/testing';
import type { OrderContext } from '@decor/order';
import { loadOrderConfig, orderService } from '@decor/order';
import { testEndpoints } from '@decor/stack';
import type { Static } from '@sinclair/typebox';

const SIGNATURE =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

let notification: Notification;
let worker: RunningService;
let order: StartedService<OrderContext>;

const s3Env = () => {
  const { s3 } = testEndpoints();
  return {
    S3_ENDPOINT: s3.endpoint,
    S3_BUCKET: s3.bucket,
    S3_REGION: s3.region,
    S3_ACCESS_KEY_ID: s3.accessKeyId,
    S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
  };
};

beforeAll(async () => {
  notification = await startNotification(s3Env());
  worker = await startWorker(s3Env());
  order = await startService(
    orderService(
      loadOrderConfig(
        await serviceEnv('order', { ...s3Env(), AGREEMENT_KEY_PREFIX: `${RUN_ID}/agreements` }),
      ),
    ),
    { exit: () => {} },
  );
  const superadmin = order.app.signToken({ id: objectId(), permissions: 'superadmin', email: address('sa') });
  const none = await call(order.url, '/settings/acceptance', {
    method: 'PUT',
    token: superadmin,
    json: { validityDays: 14, agreementText: DEFAULT_AGREEMENT_TEXT },
  });
  expect(none.status).toBe(200);
}, 120_000);
afterAll(async () => {
  if (order) {
    await order.ctx.connection.dropDatabase();
    await order.shutdown('test over');
  }
  await stopAndClean(notification, worker);
});

const objectId = () => randomUUID().replace(/-/g, '').slice(0, 24);

function event<C extends EventContract>(contract: C, aggregateId: string, payload: Static<C['payload']>) {
  return newEvent(contract, { aggregateId, correlationId: randomUUID(), payload });
}

/** A customer with an Open estimate (sent to QuickBooks): its e-mail, token and the estimate. */
async function openEstimate() {
  const id = objectId();
  const email = address('accept');
  await publish(
    notification,
    event(UserCreated, id, {
      userId: id,
      email,
      displayName: 'Ana Diaz',
      permissions: 'customer',
      companyId: objectId(),
      ownCompany: 'Evergreen Events',
      welcome: false,
    }),
  );
  const cart = {
    id: objectId(),
    userId: id,
    cartName: 'My cart',
    isActive: true,
    didCheckOut: false,
    createdAt: new Date().toISOString(),
    lines: [
      {
        id: objectId(),
        productId: 'TABLE-OAK',
        name: 'Oak Table',
        description: '',
        qty: 4,
        priceCents: 2500,
      },
    ],
    totalCents: 10000,
  };
  await publish(
    notification,
    event(ProductUpserted, 'TABLE-OAK', {
      sku: 'TABLE-OAK',
      name: 'Oak Table',
      description: '',
      priceCents: 2500,
      quantity: 1000,
      category: 'Tables',
      subcategory: 'Banquet',
      images: [],
    }),
    event(CartChanged, id, { cart, revision: 1 }),
  );
  await consumerCaughtUp(order.ctx, 'users', 'user');
  await consumerCaughtUp(order.ctx, 'carts', 'cart');
  await consumerCaughtUp(order.ctx, 'products', 'catalogue');
  const token = order.app.signToken({ id, permissions: 'customer', email });
  const submitted = await call(order.url, '/estimate', {
    method: 'POST',
    token,
    json: {
      CartId: cart.id,
      status: 'Pending',
      groupName: 'Diaz gala',
      eventDate: '2031-06-14',
      location: 'Harbor Pavilion',
    },
  });
  expect([submitted.status, submitted.body.message]).toEqual([201, undefined]);
  const { id: estimateId, DocNumber: n } = submitted.body.result as { id: string; DocNumber: string };
  await publish(
    notification,
    event(QboRecordSynced, `estimate:${estimateId}`, {
      kind: 'estimate',
      recordId: estimateId,
      qboId: `q-${estimateId.slice(0, 6)}`,
      syncToken: '0',
      action: 'created',
      revision: 1,
    }),
  );
  await consumerCaughtUp(order.ctx, 'accounting', 'accounting');
  return { email, token, estimateId, n };
}

type WithAttachments = CaughtMail & {
  Attachments?: { FileName: string; ContentType: string; Size: number }[];
};

const mailWith = (to: () => Promise<CaughtMail[]>, subject: string) =>
  eventually(
    async () => (await to()).find((m) => m.Subject === subject) as WithAttachments | undefined,
    60_000,
    subject,
  );

describe('an estimate accepted online', () => {
  it('the approval e-mail links Review and accept; the customer and staff get the confirmation with the signed agreement attached', async () => {
    const { email, token, estimateId, n } = await openEstimate();
    // Sent to QuickBooks: the approval e-mail, its text as ever, with the deposit and the link.
    const approved = await mailWith(() => mailTo(email), `Your estimate #${n} was approved`);
    expect(approved.Text).toContain(
      `Good news: your order request, estimate #${n}, was approved. You can now request an invoice from it on your order's page.`,
    );
    expect(approved.Text).toContain('sign the rental agreement (no deposit is due)');
    expect(approved.Text).toContain(
      `Review and accept: http://127.0.0.1:8080/orders/estimate/${estimateId}/accept`,
    );
    expect(approved.HTML).toContain(`href="http://127.0.0.1:8080/orders/estimate/${estimateId}/accept"`);
    const view = await call(order.url, `/estimate/${estimateId}/acceptance`, { token });
    expect(view.body.result.state).toBe('awaiting');
    const accepted = await call(order.url, `/estimate/${estimateId}/acceptance`, {
      method: 'POST',
      token,
      headers: { 'idempotency-key': randomBytes(8).toString('hex') },
      json: {
        estimateVersion: view.body.result.estimateVersion,
        signerName: 'Ana Diaz',
        signature: SIGNATURE,
        agree: true,
        paymentMethod: 'pm_card_visa',
      },
    });
    expect(accepted.status).toBe(201);

    const toCustomer = await mailWith(() => mailTo(email), `Your estimate #${n} is accepted`);
    const toStaff = await mailWith(() => mailTo(STAFF), `Estimate #${n} was accepted by Evergreen Events`);
    for (const mail of [toCustomer, toStaff]) {
      expect(mail.Text).toContain('The signed rental agreement is attached');
      expect(mail.Attachments).toEqual([
        expect.objectContaining({ FileName: `agreement-${n}.pdf`, ContentType: 'application/pdf' }),
      ]);
      expect(mail.Attachments?.[0]?.Size).toBeGreaterThan(500);
    }
    // Three e-mails, each waited for up to a minute (mailWith): a loaded machine, whose Redis timed
    // out a command meanwhile, took over the 60 s jest allows by default for the whole test.
  }, 200_000);
});
