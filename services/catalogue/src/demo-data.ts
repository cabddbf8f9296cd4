import { toCents } from '@decor/contracts';
import type { CatalogueContext } from './context';
import { contentHash, demoImageSvg } from './demo-images';
import type { ProductState } from './domain/product';
import { createCategoryIfMissing, createProductIfMissing } from './store/writes';

/**
 * The demo catalogue of local runs: created on the first start with an empty database, never in
 * production. Ids are fixed (QuickBooks-style category ids, SKUs), so two instances seeding at
 * once write the same documents and only one insert of each wins.
 */
const SEED_ID = 'catalogue-demo-v1';
const CORRELATION_ID = 'demo-seed';

/** [id, name, subcategories [id, name][]] — BARS/Bar Front is the empty cart's link (spec §2). */
export const DEMO_CATEGORIES: [string, string, [string, string][]][] = [
  [
    '10',
    'BARS',
    [
      ['11', 'Bar Front'],
      ['12', 'Back Bar'],
      ['13', 'Bar Stools'],
    ],
  ],
  [
    '20',
    'SEATING',
    [
      ['21', 'Chairs'],
      ['22', 'Lounge'],
    ],
  ],
  [
    '30',
    'TABLES',
    [
      ['31', 'Cocktail Tables'],
      ['32', 'Dining Tables'],
    ],
  ],
  [
    '40',
    'LIGHTING',
    [
      ['41', 'Chandeliers'],
      ['42', 'Candles'],
      ['43', 'Uplighting'],
    ],
  ],
  [
    '50',
    'LINENS',
    [
      ['51', 'Tablecloths'],
      ['52', 'Napkins'],
    ],
  ],
  [
    '60',
    'DECOR',
    [
      ['61', 'Centerpieces'],
      ['62', 'Backdrops'],
    ],
  ],
  // Spec §3: warehouse products are extra lines such as Labor.
  ['90', 'Warehouse', [['91', 'Services']]],
];

/**
 * Turnaround buffers that differ from the shop's 1 day before and after (issue 15), so the product
 * form shows both levels: linens go to the laundry, and so do the chairs' cushions.
 */
export const DEMO_CATEGORY_DAYS_AFTER: Record<string, number> = { LINENS: 2 };
export const DEMO_PRODUCT_DAYS_AFTER: Record<string, number> = { 'SEA-CH-001': 2 };

/** [sku, name, price in dollars, stock, number of images, description]; price or stock 0 shows 'Call or Email us'. */
type DemoProduct = [string, string, number, number, number, string];

export const DEMO_PRODUCTS: Record<string, Record<string, DemoProduct[]>> = {
  BARS: {
    'Bar Front': [
      [
        'BAR-FR-001',
        'Mirrored Bar Front',
        250,
        4,
        3,
        'Six-foot bar front faced with antiqued mirror panels.',
      ],
      [
        'BAR-FR-002',
        'White Lacquer Bar Front',
        225,
        6,
        2,
        'Glossy white bar front with a brushed steel kick plate.',
      ],
      [
        'BAR-FR-003',
        'Rustic Wood Bar Front',
        195,
        3,
        4,
        'Reclaimed barn wood bar front for garden and barn weddings.',
      ],
      [
        'BAR-FR-004',
        'Illuminated Acrylic Bar Front',
        0,
        2,
        1,
        'Frosted acrylic bar front lit from inside in any colour.',
      ],
      [
        'BAR-FR-005',
        'Gold Geometric Bar Front',
        275,
        0,
        2,
        'Gold-framed geometric panels over a black base.',
      ],
    ],
    'Back Bar': [
      [
        'BAR-BK-001',
        'Mirrored Back Bar',
        300,
        2,
        2,
        'Back bar with mirrored shelving for bottles and glassware.',
      ],
      ['BAR-BK-002', 'Walnut Back Bar Shelving', 180, 3, 1, 'Open walnut shelving unit, eight feet wide.'],
    ],
    'Bar Stools': [
      ['BAR-ST-001', 'Ghost Bar Stool', 18, 60, 2, 'Clear acrylic bar stool, 30 in. seat height.'],
      ['BAR-ST-002', 'Velvet Bar Stool', 22, 40, 3, 'Blush velvet bar stool on brass legs.'],
      ['BAR-ST-003', 'Brass Backless Stool', 20, 30, 1, 'Backless brass stool with a leather seat.'],
    ],
  },
  SEATING: {
    Chairs: [
      ['SEA-CH-001', 'Gold Chiavari Chair', 8, 400, 5, 'Classic gold chiavari chair with ivory cushion.'],
      ['SEA-CH-002', 'Clear Ghost Chair', 12, 200, 2, 'Clear acrylic armless dining chair.'],
      ['SEA-CH-003', 'Crossback Chair', 9.5, 250, 3, 'Oak crossback chair with a woven seat.'],
      ['SEA-CH-004', 'White Folding Chair', 3.25, 800, 1, 'White resin folding chair with padded seat.'],
    ],
    Lounge: [
      ['SEA-LO-001', 'Ivory Velvet Sofa', 350, 6, 4, 'Three-seat tufted velvet sofa.'],
      ['SEA-LO-002', 'Emerald Armchair', 120, 10, 2, 'Emerald velvet armchair with gold legs.'],
      ['SEA-LO-003', 'Leather Chesterfield Loveseat', 0, 4, 3, 'Cognac leather chesterfield loveseat.'],
    ],
  },
  TABLES: {
    'Cocktail Tables': [
      ['TAB-CT-001', 'Mirrored Cocktail Table', 45, 40, 2, 'Mirrored highboy cocktail table, 42 in. tall.'],
      ['TAB-CT-002', 'Gold Spandex Highboy', 35, 60, 1, 'Highboy table with a fitted gold spandex cover.'],
      ['TAB-CT-003', 'Marble Top Cocktail Table', 55, 0, 2, 'White marble top on a black iron base.'],
    ],
    'Dining Tables': [
      ['TAB-DN-001', '60 in. Round Table', 15, 120, 1, 'Seats eight to ten guests.'],
      ['TAB-DN-002', 'Farm Table 8 ft', 95, 25, 3, 'Solid pine farm table, seats ten.'],
      ['TAB-DN-003', 'Mirror Top Banquet Table', 110, 12, 2, 'Banquet table with a mirrored top, seats ten.'],
    ],
  },
  LIGHTING: {
    Chandeliers: [
      ['LIG-CH-001', 'Crystal Chandelier', 185, 8, 4, 'Six-arm crystal chandelier, rigging not included.'],
      [
        'LIG-CH-002',
        'Wrought Iron Chandelier',
        140,
        6,
        2,
        'Candle-style wrought iron chandelier with LED bulbs.',
      ],
    ],
    Candles: [
      ['LIG-CA-001', 'Mercury Glass Votive', 1.5, 1000, 2, 'Silver mercury glass votive with tea light.'],
      ['LIG-CA-002', 'Gold Candelabra', 28, 50, 3, 'Five-arm gold candelabra, 30 in. tall.'],
      ['LIG-CA-003', 'LED Pillar Candle Set', 12, 150, 1, 'Set of three flameless pillar candles.'],
    ],
    Uplighting: [
      [
        'LIG-UP-001',
        'Wireless LED Uplight',
        35,
        80,
        2,
        'Battery uplight, any colour, eight hours per charge.',
      ],
    ],
  },
  LINENS: {
    Tablecloths: [
      ['LIN-TC-001', 'Ivory Satin Tablecloth 120 in.', 18, 300, 2, 'Floor-length round satin tablecloth.'],
      ['LIN-TC-002', 'Rose Gold Sequin Tablecloth', 32, 60, 3, 'Rose gold sequin overlay for 60 in. rounds.'],
    ],
    Napkins: [
      ['LIN-NP-001', 'Sage Linen Napkin', 1.25, 2000, 1, 'Sage green washed linen napkin.'],
      ['LIN-NP-002', 'Navy Velvet Napkin', 1.75, 0, 1, 'Navy velvet napkin with a satin back.'],
    ],
  },
  DECOR: {
    Centerpieces: [
      ['DEC-CP-001', 'Gold Floral Stand', 26, 80, 3, 'Tall gold stand for floral centerpieces.'],
      ['DEC-CP-002', 'Glass Cylinder Vase Trio', 9, 200, 2, 'Three clear cylinder vases of graded heights.'],
    ],
    Backdrops: [
      ['DEC-BD-001', 'Greenery Wall 8x8', 450, 3, 4, 'Boxwood greenery wall, eight by eight feet.'],
      ['DEC-BD-002', 'Champagne Sequin Backdrop', 275, 4, 2, 'Champagne sequin backdrop with stand.'],
      ['DEC-BD-003', 'Custom Neon Sign', 0, 0, 1, 'Neon sign with your text; ask us for a quote.'],
    ],
  },
  Warehouse: {
    // Spec §9: labor is to be determined, so the line carries no price of its own.
    Services: [
      ['LABOR', 'Labor', 0, 999, 1, 'Set-up and strike crew; the estimate states the labor charge.'],
    ],
  },
};

const SVG = 'image/svg+xml';

/** Concurrency-limited map: dozens of uploads at once would only queue up in the S3 client. */
async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** A demo product with its generated pictures (keys and public URLs; the files are uploaded apart). */
function demoProduct(
  ctx: CatalogueContext,
  [sku, name, price, quantity, views, description]: DemoProduct,
  category: string,
  subcategory: string,
) {
  const files = Array.from({ length: views }, (_, i) => {
    const svg = demoImageSvg(name, category, i + 1, views);
    const hash = contentHash(svg);
    return { svg, key: ctx.images.key(sku, `${i + 1}-${hash}.svg`), id: hash, primary: i === 0 };
  });
  const product = {
    sku,
    name,
    description,
    priceCents: toCents(price),
    quantity,
    category,
    subcategory,
    turnaroundAfter: DEMO_PRODUCT_DAYS_AFTER[sku] ?? null,
    images: files.map(({ id, key, primary }) => ({
      id,
      key,
      primary,
      type: SVG,
      url: ctx.images.publicUrl(key),
    })),
  } satisfies ProductState;
  return { product, files };
}

interface SeedMark {
  _id: string;
  state: 'running' | 'done';
  at: Date;
}

/** Seeds the demo catalogue once per database (not in production). Returns whether it ran. */
export async function seedDemoCatalogue(ctx: CatalogueContext): Promise<boolean> {
  if (ctx.config.NODE_ENV === 'production' || !ctx.config.DEMO_CATALOGUE) return false;
  const marks = ctx.connection.collection<SeedMark>('demo_seed');
  const mark = await marks.findOne({ _id: SEED_ID });
  if (mark?.state === 'done') return false;
  // A catalogue someone built by hand is left alone; a seed that stopped half-way is finished.
  if (!mark && (await ctx.products.estimatedDocumentCount()) > 0) return false;
  await marks
    .updateOne({ _id: SEED_ID }, { $setOnInsert: { state: 'running', at: new Date() } }, { upsert: true })
    .catch((err: { code?: number }) => {
      if (err.code !== 11000) throw err;
    });

  const rows = Object.entries(DEMO_PRODUCTS).flatMap(([category, subs]) =>
    Object.entries(subs).flatMap(([subcategory, products]) =>
      products.map((p) => ({ p, category, subcategory })),
    ),
  );
  const demo = rows.map((r) => demoProduct(ctx, r.p, r.category, r.subcategory));
  const products = demo.map((d) => d.product);
  try {
    await ctx.images.ensureBucket();
    await mapLimit(
      demo.flatMap((d) => d.files),
      16,
      (file) => ctx.images.put(file.key, file.svg, SVG),
    );
  } catch (err) {
    // Nothing written yet: the next start tries again. The service still serves what it has.
    ctx.log.error({ err }, `demo catalogue not seeded: cannot upload images to ${ctx.config.S3_ENDPOINT}`);
    return false;
  }

  const categories = DEMO_CATEGORIES.flatMap(([id, name, subs]) => [
    { id, name, turnaroundAfter: DEMO_CATEGORY_DAYS_AFTER[name] ?? null },
    ...subs.map(([subId, subName]) => ({ id: subId, name: subName, parentId: id })),
  ]);
  await mapLimit(categories, 8, (category) => createCategoryIfMissing(ctx, category, CORRELATION_ID));
  await mapLimit(products, 8, (product) => createProductIfMissing(ctx, product, CORRELATION_ID));
  await marks.updateOne({ _id: SEED_ID }, { $set: { state: 'done', at: new Date() } });
  ctx.catalogueChanged();
  ctx.log.info(
    `demo catalogue: ${DEMO_CATEGORIES.length} categories, ${products.length} products, images in ${ctx.config.S3_BUCKET}`,
  );
  return true;
}
