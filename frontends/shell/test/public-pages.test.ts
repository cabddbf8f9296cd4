import { publicPageOf } from '../src/public-pages';

describe('the pages rendered on the server', () => {
  it('are home, gallery, the terms and the inventory, read from the address', () => {
    expect(publicPageOf('/')).toEqual({ kind: 'home' });
    expect(publicPageOf('/gallery')).toEqual({ kind: 'gallery' });
    expect(publicPageOf('/tos')).toEqual({ kind: 'tos' });
    expect(publicPageOf('/inventory')).toEqual({ kind: 'inventory' });
    expect(publicPageOf('/inventory/BARS')).toEqual({ kind: 'inventory' });
    expect(publicPageOf('/inventory/BARS/Bar%20Front')).toEqual({
      kind: 'inventory',
      category: 'BARS',
      subcategory: 'Bar Front',
    });
    expect(publicPageOf('/inventory/BARS/Bar%20Front/BAR%2F1')).toEqual({
      kind: 'inventory',
      category: 'BARS',
      subcategory: 'Bar Front',
      productId: 'BAR/1',
    });
  });

  it('are not the signed-in screens, reset links, unknown or malformed paths', () => {
    for (const path of ['/checkout', '/carts', '/profile', '/orders', '/admin', '/reset/a.b.c', '/nowhere']) {
      expect(publicPageOf(path)).toBeNull();
    }
    expect(publicPageOf('/inventory/%E0%A4%A/x')).toBeNull();
    expect(publicPageOf('/inventory/a/b/c/d')).toBeNull();
  });
});
