export { type InfraEndpoints, TEST_ENDPOINTS_ENV, testEndpoints } from './endpoints';
export { DEV_PORTS, type InfraHandle, type StartInfraOptions, startInfra } from './infra';
export { type KafkaOptions, startKafka } from './kafka';
export { assertPortFree, canConnect, freePort, PortTakenError, portFromEnv } from './ports';
export { type ProcessSpec, ProcessStartError, prefixFor, type RunningProcess, startProcess } from './process';
export {
  consentRedirect as qboConsentRedirect,
  DEMO_COMPANY_NAME as QBO_DEMO_COMPANY_NAME,
  DEMO_REALM_ID as QBO_DEMO_REALM_ID,
  emulatorControl as qboEmulatorControl,
  QBO_DEV_CLIENT,
  type QboEmulator,
  type QboEmulatorOptions,
  qboEnv,
  startQboEmulator,
} from './qbo';
