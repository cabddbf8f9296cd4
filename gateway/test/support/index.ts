/** `@decor/gateway/testing`: the stacks and clients other workspaces' tests (browser journeys) start. */
export * from './sse-client';
export * from './stack';
export * from './storefront-client';
export * from './storefront-stack';
