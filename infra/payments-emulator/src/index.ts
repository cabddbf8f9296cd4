export { paymentsControl } from './control-client';
export {
  PAYMENTS_DEV_KEYS,
  type PaymentsEmulator,
  type PaymentsEmulatorOptions,
  startPaymentsEmulator,
  type WebhookEndpointSpec,
} from './emulator';
export { signature as webhookSignature } from './webhooks';
