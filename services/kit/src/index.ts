export * from './cache';
export * from './config';
export * from './http';
export * from './jobs';
export * from './messaging';
export * from './mongo';
export * from './service';
export * from './worker-process';
