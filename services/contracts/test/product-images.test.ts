import {
  addedImagesProblem,
  IMAGE_TEXTS,
  imageCountProblem,
  imageSizeProblem,
  isImageType,
  newProductImagesProblem,
  remainingImageSlots,
  shortImageName,
} from '../src/product-images';

const file = (name: string, size: number, type = 'image/png') => ({ name, size, type });

describe('product image rules (spec orders §5, §9)', () => {
  it('size: each file under 1e5 bytes; 1e5 or more has exceeded the max', () => {
    expect(imageSizeProblem([file('a.png', 99_999)])).toBeUndefined();
    expect(imageSizeProblem([file('a.png', 100_000), file('b.png', 10)])).toBe(
      'Image a.png has exceeded the max file size of 100kb',
    );
    expect(imageSizeProblem([file('a.png', 101_000), file('b.png', 10), file('c.jpg', 200_000)])).toBe(
      'Images a.png, c.jpg have exceeded the max file size of 100kb',
    );
  });

  it('count on an existing product: 5 in total', () => {
    expect(remainingImageSlots(0)).toBe(5);
    expect(remainingImageSlots(7)).toBe(0);
    expect(imageCountProblem(3, 2)).toBeUndefined();
    expect(imageCountProblem(3, 3)).toBe(
      'You attempted to upload 3 image(s) and only 2 more image(s) can be uploaded.',
    );
    expect(imageCountProblem(5, 1)).toBe(
      'You attempted to upload 1 image(s) and only 0 more image(s) can be uploaded.',
    );
  });

  it('a new product: at most 5 at a time, then sizes, then image types', () => {
    const six = Array.from({ length: 6 }, (_, i) => file(`${i}.png`, 10));
    expect(newProductImagesProblem(six)).toBe('Only 5 images can be uploaded at a time');
    expect(newProductImagesProblem(six.slice(0, 5))).toBeUndefined();
    expect(newProductImagesProblem([file('big.png', 100_001)])).toBe(
      'Image big.png has exceeded the max file size of 100kb',
    );
    expect(newProductImagesProblem([file('notes.txt', 10, 'text/plain')])).toBe(IMAGE_TEXTS.notAnImage);
    expect(addedImagesProblem(4, [file('a.png', 10), file('b.png', 10)])).toBe(
      'You attempted to upload 2 image(s) and only 1 more image(s) can be uploaded.',
    );
    expect(addedImagesProblem(4, [file('a.gif', 200_000, 'image/gif')])).toBe(
      'Image a.gif has exceeded the max file size of 100kb',
    );
  });

  it('image types only', () => {
    expect(isImageType('image/jpeg')).toBe(true);
    expect(isImageType('image/svg+xml')).toBe(true);
    expect(isImageType('application/pdf')).toBe(false);
    expect(isImageType('')).toBe(false);
    expect(isImageType(undefined)).toBe(false);
  });

  it('names over 30 characters are cut to 30 plus an ellipsis', () => {
    expect(shortImageName('a'.repeat(30))).toBe('a'.repeat(30));
    expect(shortImageName(`${'b'.repeat(30)}.png`)).toBe(`${'b'.repeat(30)}...`);
  });
});
