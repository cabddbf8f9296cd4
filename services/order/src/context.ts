import type { AggregateType, HoldingPolicy, TurnaroundBuffer } from '@decor/contracts';
import { type BaseContext, type JobWorker, registerQueueMetrics, waitForCatchUp } from '@decor/kit';
import type { Queue } from 'bullmq';
import type { Admin } from 'kafkajs';
import type { OrderConfig } from './config';
import { calendarDate } from './domain/modification';
import { type AgreementJob, agreementQueue, agreementWorker } from './jobs/agreement-jobs';
import type { PaymentProvider } from './payments/provider';
import { stripeProvider, unconfiguredProvider } from './payments/stripe';
import { type PaymentEventModel, paymentEventModel } from './store/acceptance';
import { type SettingsStore, settingsModels } from './store/acceptance-settings';
import { type AgreementFiles, agreementFiles } from './store/agreement-files';
import { type BookingStore, ledgerBatches } from './store/bookings';
import { type CounterModel, counterModel } from './store/counter-model';
import { type EstimateModel, estimateModel, type InvoiceModel, invoiceModel } from './store/estimate-model';
import { type LedgerModel, ledgerModel } from './store/ledger-model';
import {
  type CartProjectionModel,
  type CategoryProjectionModel,
  cartProjectionModel,
  categoryProjectionModel,
  type ProductProjectionModel,
  productProjectionModel,
  type TruckingFeeModel,
  truckingFeeModel,
  type UserProjectionModel,
  userProjectionModel,
} from './store/projection-models';

/** The kit names consumer groups after the service: keep in step with app.ts. */
export const SERVICE_NAME = 'order';

/** This service's event consumers (each its own group, so one slow topic never delays another). */
export const CONSUMERS = {
  carts: { name: 'carts', topic: 'cart' },
  truckingFee: { name: 'trucking-fee', topic: 'catalogue' },
  /** The catalogue's products, for line edits (a group of its own: it reads the topic from the start). */
  products: { name: 'products', topic: 'catalogue' },
  users: { name: 'users', topic: 'user' },
  accounting: { name: 'accounting', topic: 'accounting' },
  /** Our own InvoiceCreated: closes the invoice's estimate (store/orders.ts, closeInvoicedEstimate). */
  invoices: { name: 'invoices', topic: 'order' },
  /** Our own order events, for accepted estimates' deposits and signatures (events/acceptance.ts). */
  acceptance: { name: 'acceptance', topic: 'order' },
} as const satisfies Record<string, { name: string; topic: AggregateType }>;

export type ConsumerKey = keyof typeof CONSUMERS;

export interface OrderContext extends BaseContext<OrderConfig> {
  estimates: EstimateModel;
  invoices: InvoiceModel;
  counters: CounterModel;
  carts: CartProjectionModel;
  truckingFee: TruckingFeeModel;
  users: UserProjectionModel;
  products: ProductProjectionModel;
  categories: CategoryProjectionModel;
  /** Bookings: one ledger per product (store/bookings.ts). */
  ledgers: LedgerModel;
  /** This instance's ledger writes, batched per product (group commit). */
  ledgerBatches: BookingStore['batches'];
  /** The shop's booking settings (config). */
  shop: { turnaround: TurnaroundBuffer; holding: HoldingPolicy };
  /** Connected once at start (closed at shutdown): reads topic ends for `catchUp`. */
  kafkaAdmin: Admin;
  /**
   * Waits (at most ~3 s) until our consumer has handled every event that is on its topic now, so a
   * projection read next reflects what the other service published before this request arrived.
   */
  catchUp(consumer: ConsumerKey): Promise<boolean>;
  /** Today's date (YYYY-MM-DD) in the business's time zone. */
  today(): string;
  /** Issue 30: the payment provider, the acceptance settings and the provider's events handled. */
  payments: PaymentProvider;
  acceptanceSettings: SettingsStore;
  paymentEvents: PaymentEventModel;
  /** The signed agreements: their PDFs in S3, and the jobs that make them (jobs/agreement-jobs.ts). */
  agreementFiles: AgreementFiles;
  agreementQueue: Queue<AgreementJob>;
  agreementWorker: JobWorker<AgreementJob> | null;
}

/** Stripe (or the local emulator) when a secret key is set; else every deposit answers 503. */
export function paymentsOf(config: OrderConfig): PaymentProvider {
  if (!config.STRIPE_SECRET_KEY) return unconfiguredProvider;
  return stripeProvider({
    secretKey: config.STRIPE_SECRET_KEY,
    ...(config.STRIPE_API_URL ? { apiUrl: config.STRIPE_API_URL } : {}),
    webhookSecret: config.STRIPE_WEBHOOK_SECRET ?? '',
    timeoutMs: config.PAYMENTS_TIMEOUT_MS,
  });
}

/** The consumer group the kit gives a consumer of this service (`<prefix>.<service>.<name>`). */
export function consumerGroupId(config: OrderConfig, consumer: ConsumerKey): string {
  return `${config.KAFKA_TOPIC_PREFIX}.${SERVICE_NAME}.${CONSUMERS[consumer].name}`;
}

export async function buildOrderContext(base: BaseContext<OrderConfig>): Promise<OrderContext> {
  const timeZone = base.config.SHOP_TIME_ZONE;
  calendarDate(new Date(), timeZone); // an unknown zone fails the start here, with Intl's message
  const kafkaAdmin = base.kafka.admin();
  const ledgers = ledgerModel(base.connection);
  await kafkaAdmin.connect();
  const queue = agreementQueue(base);
  registerQueueMetrics(base.metrics, [queue]);
  const ctx: OrderContext = {
    ...base,
    estimates: estimateModel(base.connection),
    invoices: invoiceModel(base.connection),
    counters: counterModel(base.connection),
    carts: cartProjectionModel(base.connection),
    truckingFee: truckingFeeModel(base.connection),
    users: userProjectionModel(base.connection),
    products: productProjectionModel(base.connection),
    categories: categoryProjectionModel(base.connection),
    ledgers,
    ledgerBatches: ledgerBatches(ledgers),
    shop: {
      turnaround: { before: base.config.TURNAROUND_BEFORE_DAYS, after: base.config.TURNAROUND_AFTER_DAYS },
      holding: { pendingHolds: base.config.PENDING_REQUESTS_HOLD_STOCK },
    },
    kafkaAdmin,
    catchUp: (consumer) =>
      waitForCatchUp({
        admin: kafkaAdmin,
        connection: base.connection,
        groupId: consumerGroupId(base.config, consumer),
        topic: base.topic(CONSUMERS[consumer].topic),
      }),
    today: () => calendarDate(new Date(), timeZone),
    payments: paymentsOf(base.config),
    acceptanceSettings: settingsModels(base.connection),
    paymentEvents: paymentEventModel(base.connection),
    agreementFiles: agreementFiles(base.config),
    agreementQueue: queue,
    agreementWorker: null,
  };
  if (base.config.AGREEMENT_JOB_CONCURRENCY > 0) ctx.agreementWorker = agreementWorker(ctx);
  return ctx;
}
