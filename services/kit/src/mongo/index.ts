export * from './connection';
export * from './ids';
export * from './list';
