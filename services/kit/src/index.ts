// First: the tracing SDK (when configured) must patch modules before the rest requires them.
import './tracing/register';

export * from './cache';
export * from './config';
export * from './flow';
export * from './http';
export * from './jobs';
export * from './messaging';
export * from './metrics';
export * from './mongo';
export * from './service';
export * from './tracing';
export * from './worker-process';
