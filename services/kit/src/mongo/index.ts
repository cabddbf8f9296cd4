export * from './connection';
export * from './ids';
export * from './keyed-lock';
export * from './list';
export * from './lost-race';
