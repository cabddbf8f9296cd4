export * from './envelope';
export * from './events';
