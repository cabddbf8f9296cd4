export * from './app';
export * from './auth';
export * from './error-handler';
export * from './errors';
export * from './health';
export * from './run';
export { closeObjects } from './validation';
export { type AjvIssue, MESSAGE_KEYWORD, validationMessage } from './validation-messages';
