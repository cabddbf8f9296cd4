import { contentHash, demoImageSvg } from '../src/demo-images';
import { categoryName, primaryFirst, productView, SKU_PATTERN } from '../src/domain/product';

const image = (id: string, primary: boolean) => ({ id, url: `http://s3/${id}`, primary, type: 'image/png' });
const product = {
  sku: 'SEA-CH-001',
  name: 'Gold Chiavari Chair',
  description: 'Classic',
  priceCents: 850,
  quantity: 400,
  category: 'SEATING',
  subcategory: 'Chairs',
  qboId: '77',
  syncToken: '3',
  images: [image('a', false), image('b', true), image('c', false)],
};

describe('products', () => {
  it('puts the primary image first and keeps the others in order', () => {
    expect(primaryFirst(product.images).map((i) => i.id)).toEqual(['b', 'a', 'c']);
  });

  it("reads the name part of an accounting '{id}__{name}' category", () => {
    expect(categoryName('11__Bar Front')).toBe('Bar Front');
    expect(categoryName('Bar Front')).toBe('Bar Front');
    expect(categoryName('Bar_Front')).toBe('Bar_Front');
  });

  it('shows price (dollars) and stock to signed-in users only, accounting ids to staff only', () => {
    expect(productView(product, 'anonymous')).not.toHaveProperty('price');
    expect(productView(product, 'anonymous')).not.toHaveProperty('quantity');
    expect(productView(product, 'signedIn')).toMatchObject({ price: 8.5, quantity: 400 });
    expect(productView(product, 'signedIn')).not.toHaveProperty('qboId');
    expect(productView(product, 'staff')).toMatchObject({ qboId: '77', syncToken: '3' });
    expect(productView(product, 'anonymous').Images[0]).toEqual(image('b', true));
  });

  it('accepts SKUs of letters, digits and . _ - only', () => {
    const sku = new RegExp(SKU_PATTERN);
    for (const ok of ['LABOR', 'BAR-FR-001', 'a.b_c-1']) expect(sku.test(ok)).toBe(true);
    for (const bad of ['', '-x', 'a b', 'a/b', '$where', 'x'.repeat(65)]) expect(sku.test(bad)).toBe(false);
  });
});

describe('demo images', () => {
  it('are small SVGs with the escaped product name, different per view', () => {
    const one = demoImageSvg('Tom & Jerry <Chair>', 'SEATING', 1, 2);
    const two = demoImageSvg('Tom & Jerry <Chair>', 'SEATING', 2, 2);
    expect(one).toMatch(/^<svg /);
    expect(one).toContain('Tom &amp; Jerry &lt;Chair&gt;');
    expect(one.length).toBeLessThan(100_000);
    expect(contentHash(one)).not.toBe(contentHash(two));
  });
});
