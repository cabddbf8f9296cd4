/**
 * Catalogue reads through the gateway: `GET /api/product` for one subcategory with a signed-in
 * customer's token (prices and stock included), beside the gateway's own `/healthz` in the same run
 * and load. The ratio shows what the product listing costs on top of the gateway itself.
 */
import { figures, type LoadFigures, type LoadOptions, load, signIn, type Target } from './gateway-overhead';

export const PRODUCT_LIST_PATH = '/api/product?category=BARS&subcategory=Bar%20Front';

export interface CatalogueReads {
  connections: number;
  seconds: number;
  warmupSeconds: number;
  health: LoadFigures;
  products: LoadFigures;
  /** products / health requests per second. */
  ratio: number;
  /** Products in the measured answer (a listing of nothing would be a fast, meaningless figure). */
  listed: number;
}

export async function measureCatalogueReads(
  urls: { user: string; gateway: string },
  opts: LoadOptions,
  log: (line: string) => void,
): Promise<CatalogueReads> {
  const token = await signIn(urls.user);
  const health: Target = { url: `${urls.gateway}/healthz`, runs: [], coreSeconds: {} };
  const products: Target = { url: `${urls.gateway}${PRODUCT_LIST_PATH}`, token, runs: [], coreSeconds: {} };
  const check = await fetch(products.url, { headers: { authorization: `Bearer ${token}` } });
  const body = (await check.json()) as { result?: { price?: number }[] };
  if (!check.ok || !body.result?.length || body.result[0]?.price === undefined) {
    throw new Error(
      `GET ${products.url} answered ${check.status} without priced products: ${JSON.stringify(body)}`,
    );
  }
  log(`catalogue reads: warming up ${opts.warmupSeconds} s on each target …`);
  for (const t of [health, products])
    await load({ ...t, runs: [], coreSeconds: {} }, opts.connections, opts.warmupSeconds, {});
  const half = Math.max(1, Math.round(opts.seconds / 2));
  log(`catalogue reads: measuring ${2 * half} s per target in halves: health, products, products, health …`);
  for (const t of [health, products, products, health]) await load(t, opts.connections, half, opts.roles);
  const hf = figures(health, opts.connections);
  const pf = figures(products, opts.connections);
  return {
    connections: opts.connections,
    seconds: 2 * half,
    warmupSeconds: opts.warmupSeconds,
    health: hf,
    products: pf,
    ratio: pf.requestsPerSecond / hf.requestsPerSecond,
    listed: body.result.length,
  };
}
