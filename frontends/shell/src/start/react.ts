/**
 * The start's first part (../index.ts): React. The parts import their modules `eager`: a module is
 * then in the part's own chunk, its shared libraries' chunks load with it, and it runs only when its
 * import() is called, in a task of the part's choosing.
 */
export async function run(): Promise<void> {
  await import(/* webpackMode: "eager" */ 'react-dom/client');
}
