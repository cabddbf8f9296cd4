/** The start's second part (../index.ts): antd, as the site's pages use it. */
export async function run(): Promise<void> {
  await import(/* webpackMode: "eager" */ '@decor/web-core/ui');
}
