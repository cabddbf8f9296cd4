import { chunkOnce } from '../src/chunk-once';

test('a chunk is imported once however often it is asked for, and is at hand once loaded', async () => {
  let imports = 0;
  const chunk = chunkOnce(async () => {
    imports += 1;
    return { name: 'pickers' };
  });
  expect(chunk.loaded).toBeUndefined();
  const [a, b] = await Promise.all([chunk.load(), chunk.load()]);
  expect(a).toBe(b);
  expect(await chunk.load()).toBe(a);
  expect(imports).toBe(1);
  expect(chunk.loaded).toBe(a);
});

test('a failed import is tried again on the next ask', async () => {
  let imports = 0;
  const chunk = chunkOnce(async () => {
    imports += 1;
    if (imports === 1) throw new Error('chunk failed to load');
    return { name: 'add to cart' };
  });
  await expect(chunk.load()).rejects.toThrow('chunk failed to load');
  expect(chunk.loaded).toBeUndefined();
  expect(await chunk.load()).toEqual({ name: 'add to cart' });
  expect(imports).toBe(2);
});

test('a provided module is at hand without importing', async () => {
  let imports = 0;
  const chunk = chunkOnce(async () => {
    imports += 1;
    return { name: 'imported' };
  });
  const provided = { name: 'provided' };
  chunk.provide(provided);
  expect(chunk.loaded).toBe(provided);
  expect(imports).toBe(0);
});
