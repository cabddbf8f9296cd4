import { nextTask } from '../next-task';

/** The start's third part (../index.ts): redux and RTK Query. */
export async function run(): Promise<void> {
  await import(/* webpackMode: "eager" */ '@reduxjs/toolkit');
  await import(/* webpackMode: "eager" */ 'react-redux');
  await nextTask();
  await import(/* webpackMode: "eager" */ '@reduxjs/toolkit/query/react');
}
