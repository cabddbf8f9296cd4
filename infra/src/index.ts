export { type InfraEndpoints, TEST_ENDPOINTS_ENV, testEndpoints } from './endpoints';
export { DEV_PORTS, type InfraHandle, type StartInfraOptions, startInfra } from './infra';
export { assertPortFree, canConnect, freePort, PortTakenError, portFromEnv } from './ports';
export { type ProcessSpec, ProcessStartError, prefixFor, type RunningProcess, startProcess } from './process';
