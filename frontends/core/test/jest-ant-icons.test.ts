/**
 * The jsdom tests read '@ant-design/icons' through frontends/jest-ant-icons.cjs (each icon loaded
 * when first read): it must export what the package's index exports, the very same components.
 */
import * as lazily from '@ant-design/icons';

it("exports every name of the package's index, each the same value", () => {
  const index = jest.requireActual<Record<string, unknown>>('@ant-design/icons/lib/index');
  const names = Object.keys(index).sort();
  expect(names.length).toBeGreaterThan(800);
  expect(Object.keys(lazily).sort()).toEqual(names);
  const read = lazily as unknown as Record<string, unknown>;
  expect(names.filter((name) => read[name] !== index[name])).toEqual([]);
});
