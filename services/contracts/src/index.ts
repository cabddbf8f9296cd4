export * from './cart-events';
export * from './catalogue-events';
export * from './envelope';
export * from './events';
export * from './money';
export * from './order-events';
export * from './password-rule';
export * from './summary-format';
