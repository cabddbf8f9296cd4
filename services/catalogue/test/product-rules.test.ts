/** The pure product, category and image rules (spec §3-§5, §9). */
import {
  attachImages,
  checkRoom,
  IMAGE_MESSAGES,
  type ImageRuleError,
  MAX_IMAGE_BYTES,
  oversizedProblem,
  PLACEHOLDER_ID,
  remainingSlots,
  removeImage,
  setPrimary,
} from '../src/domain/images';
import type { ProductImage } from '../src/domain/product';
import { turnaroundOverride } from '../src/domain/product';
import {
  categoryFields,
  categoryTurnaround,
  checkCategory,
  FormError,
  productFields,
} from '../src/domain/product-form';

const img = (id: string, primary = false): ProductImage => ({
  id,
  url: `/i/${id}.png`,
  primary,
  type: 'image/png',
});
const placeholder = { id: PLACEHOLDER_ID, url: '/placeholder.svg', primary: true, type: 'image/svg+xml' };
const primaries = (images: ProductImage[]) => images.filter((i) => i.primary).map((i) => i.id);

const tree = [
  { id: '1', name: 'BARS', parentId: null },
  { id: '11', name: 'Bar Front', parentId: '1' },
  { id: '2', name: 'LIGHTING', parentId: null },
  { id: '21', name: 'Lamps', parentId: '2' },
];

describe('product form', () => {
  const form = {
    name: ' Bar ',
    description: 'd',
    category: 'BARS',
    subcategory: 'Bar Front',
    price: '12.345',
    quantity: '3',
  };

  it('trims text, rounds the price to the cent, takes numeric text', () => {
    expect(productFields(form)).toEqual({
      name: 'Bar',
      description: 'd',
      category: 'BARS',
      subcategory: 'Bar Front',
      priceCents: 1235,
      quantity: 3,
      turnaroundBefore: null,
      turnaroundAfter: null,
    });
  });

  it.each([
    [{ price: '1e3' }, 'Price must be a number'],
    [{ price: Number.NaN }, 'Price must be a number'],
    [{ quantity: -2 }, 'Quantity must be 0 or more'],
    [{ quantity: '2.5' }, 'Quantity must be a whole number'],
    [{ price: 2_000_000 }, 'Price must be at most 1000000'],
    [{ description: '' }, 'Description: This field is required'],
  ])('refuses %j', (change, message) => {
    expect(() => productFields({ ...form, ...change })).toThrow(new FormError(message));
  });

  it('turnaround days: empty inherits (null), whole numbers 0 to 30 as numbers or text', () => {
    const days = (turnaroundBefore: unknown, turnaroundAfter: unknown) => {
      const f = productFields({ ...form, turnaroundBefore, turnaroundAfter } as never);
      return [f.turnaroundBefore, f.turnaroundAfter];
    };
    expect(days(undefined, null)).toEqual([null, null]);
    expect(days('', '  ')).toEqual([null, null]);
    expect(days(0, '30')).toEqual([0, 30]);
    expect(days(' 2 ', 1)).toEqual([2, 1]);
  });

  it.each([
    [{ turnaroundBefore: 31 }, 'Turnaround days before must be at most 30'],
    [{ turnaroundAfter: '100' }, 'Turnaround days after must be at most 30'],
    [{ turnaroundBefore: -1 }, 'Turnaround days before must be 0 or more'],
    [{ turnaroundAfter: 1.5 }, 'Turnaround days after must be a whole number'],
    [{ turnaroundAfter: '2 days' }, 'Turnaround days after must be a number'],
    [{ turnaroundBefore: Number.POSITIVE_INFINITY }, 'Turnaround days before must be a number'],
  ])('refuses turnaround %j', (change, message) => {
    expect(() => productFields({ ...form, ...change })).toThrow(new FormError(message));
  });

  it('category turnaround: the same rules; events carry only the sides set', () => {
    expect(categoryTurnaround({})).toEqual({ before: null, after: null });
    expect(categoryTurnaround({ before: '', after: '2' })).toEqual({ before: null, after: 2 });
    expect(() => categoryTurnaround({ before: 31 })).toThrow(
      new FormError('Turnaround days before must be at most 30'),
    );
    expect(turnaroundOverride(null, null)).toBeUndefined();
    expect(turnaroundOverride(undefined, 2)).toEqual({ after: 2 });
    expect(turnaroundOverride(0, null)).toEqual({ before: 0 });
  });

  it('places a subcategory only under its own category', () => {
    expect(() => checkCategory(tree, 'BARS', 'Bar Front')).not.toThrow();
    expect(() => checkCategory(tree, 'BARS', 'Lamps')).toThrow(
      "The subcategory 'Lamps' does not belong to the category 'BARS'",
    );
    expect(() => checkCategory(tree, 'Bar Front', 'Bar Front')).toThrow(
      "There is no category named 'Bar Front'",
    );
  });

  it('category form: name required, a top-level parent for a subcategory, names unique per parent', () => {
    expect(categoryFields(tree, { name: 'TENTS' })).toEqual({ name: 'TENTS', parentId: null });
    expect(categoryFields(tree, { name: 'Lamps', isSubCategory: true, parent: 'BARS' })).toEqual({
      name: 'Lamps',
      parentId: '1',
    });
    expect(categoryFields(tree, { name: 'Back Bar', isSubCategory: true, parent: '1__BARS' }).parentId).toBe(
      '1',
    );
    expect(() => categoryFields(tree, { name: 'x', isSubCategory: true, parent: '11' })).toThrow(
      'A subcategory cannot be the parent of another subcategory',
    );
    expect(() => categoryFields(tree, { name: 'lamps', isSubCategory: true, parent: '2' })).toThrow(
      "The category 'LIGHTING' already has a subcategory named 'lamps'",
    );
  });
});

describe('image rules', () => {
  it('counts room without the placeholder, with the spec sentences', () => {
    expect(remainingSlots([img('a'), img('b')])).toBe(3);
    expect(remainingSlots([placeholder])).toBe(5);
    expect(() => checkRoom([img('a'), img('b')], 3)).not.toThrow();
    expect(() => checkRoom([img('a'), img('b')], 4)).toThrow(
      'You attempted to upload 4 image(s) and only 3 more image(s) can be uploaded.',
    );
    const five = ['a', 'b', 'c', 'd', 'e'].map((id) => img(id));
    const err = (() => {
      try {
        checkRoom(five, 1);
      } catch (e) {
        return e as ImageRuleError;
      }
    })();
    expect(err?.status).toBe(409);
    expect(err?.message).toBe(
      'You have reached the max number of images for this product. To add a new image, please remove an existing image.',
    );
  });

  it('makes the first image primary when none is, keeps an existing primary, drops the placeholder', () => {
    expect(primaries(attachImages([], [img('a'), img('b')]))).toEqual(['a']);
    expect(primaries(attachImages([img('a'), img('b', true)], [img('c', true)]))).toEqual(['b']);
    const replaced = attachImages([placeholder], [img('n')]);
    expect(replaced.map((i) => [i.id, i.primary])).toEqual([['n', true]]);
  });

  it('set primary leaves exactly one; unknown or placeholder ids are 404', () => {
    expect(primaries(setPrimary([img('a', true), img('b'), img('c')], 'c'))).toEqual(['c']);
    expect(() => setPrimary([img('a')], 'x')).toThrow(IMAGE_MESSAGES.imageNotFound);
    expect(() => setPrimary([placeholder], PLACEHOLDER_ID)).toThrow(IMAGE_MESSAGES.imageNotFound);
  });

  it('delete moves primary to the first remaining image and saves the placeholder after the last', () => {
    const { images, removed } = removeImage([img('a', true), img('b'), img('c')], 'a', placeholder);
    expect(removed.id).toBe('a');
    expect(images.map((i) => [i.id, i.primary])).toEqual([
      ['b', true],
      ['c', false],
    ]);
    expect(removeImage([img('a', true)], 'a', placeholder).images).toEqual([placeholder]);
    expect(() => removeImage([placeholder], PLACEHOLDER_ID, placeholder)).toThrow(
      IMAGE_MESSAGES.placeholderKept,
    );
    expect(() => removeImage([img('a')], 'zz', placeholder)).toThrow(IMAGE_MESSAGES.imageNotFound);
  });

  it('a file must be under 100 KB (1e5 bytes); the messages name the files', () => {
    expect(MAX_IMAGE_BYTES).toBe(1e5);
    expect(
      oversizedProblem([
        { name: 'a.png', bytes: 99_999 },
        { name: 'b.png', bytes: 100_000 },
      ]),
    ).toBe('Image b.png has exceeded the max file size of 100kb');
    expect(
      oversizedProblem([
        { name: 'b.png', bytes: 100_000 },
        { name: 'c.png', bytes: 200_000 },
      ]),
    ).toBe('Images b.png, c.png have exceeded the max file size of 100kb');
    expect(oversizedProblem([{ name: 'a.png', bytes: 99_999 }])).toBeUndefined();
  });
});
