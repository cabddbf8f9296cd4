export { consentRedirect, emulatorControl } from './control-client';
export { DEMO_COMPANY_NAME, DEMO_REALM_ID } from './demo-company';
export { QBO_DEV_CLIENT, type QboEmulator, type QboEmulatorOptions, startQboEmulator } from './emulator';
