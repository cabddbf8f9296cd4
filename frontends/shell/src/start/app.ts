import { nextTask } from '../next-task';

/** The start's last part (../index.ts): the shared store and client, the router, the app; then it starts. */
export async function run(): Promise<void> {
  await import(/* webpackMode: "eager" */ '@decor/web-core');
  await nextTask();
  await import(/* webpackMode: "eager" */ '@decor/web-core/router');
  await nextTask();
  const { start } = await import(/* webpackMode: "eager" */ '../bootstrap');
  await nextTask();
  const root = document.getElementById('root');
  if (root) await start(root);
}
