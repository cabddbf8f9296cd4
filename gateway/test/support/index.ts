/**
 * `@decor/gateway/testing`: the gateway's own test helpers, for the tests that start it with other
 * services (`@decor/testbed`, the browser journeys): its test env, SSE and storefront clients, and
 * its main.ts as a process of its own.
 */
export * from './env';
export * from './processes';
export * from './sse-client';
export * from './storefront-client';
