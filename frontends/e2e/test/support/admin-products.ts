/**
 * Helpers of the product dialogs journey (`admin-products.test.ts`): image files as the picker gets
 * them (real PNGs, or padded past the size limit), the inventory's Add Product dialog, and the
 * catalogue's answers read through the API.
 */
import { deflateSync } from 'node:zlib';
import { call } from '@decor/kit/testing';
import type { Locator, Page } from 'playwright-core';
import { openedDialog, visible } from './ui';

/** A file for `setInputFiles`. */
export interface PickedFile {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

function crc32(bytes: Buffer): number {
  let crc = ~0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/**
 * A real PNG of one colour (width × height), padded with a private chunk to at least `minBytes` (a
 * browser shows it; the padding only makes the file large).
 */
export function png(name: string, rgb: [number, number, number], minBytes = 0): PickedFile {
  const [width, height] = [64, 48];
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => rgb).flat())]);
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  const parts = [
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(pixels)),
  ];
  const size = parts.reduce((n, p) => n + p.length, 0) + 12;
  if (minBytes > size + 12) parts.push(chunk('prVt', Buffer.alloc(minBytes - size - 12)));
  parts.push(chunk('IEND', Buffer.alloc(0)));
  return { name, mimeType: 'image/png', buffer: Buffer.concat(parts) };
}

/** Opens the list's Add Product dialog and goes to the product form (categories loaded). */
export async function openAddProductForm(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: 'Add Product' }).click();
  const dialog = await openedDialog(page, 'Add Product');
  await dialog.getByRole('radio', { name: 'Product' }).check();
  await dialog.getByRole('button', { name: 'Continue' }).click();
  await visible(dialog.getByLabel('Name', { exact: true }));
  return dialog;
}

/** The product's images as the catalogue answers them (primary first). */
export async function imagesOf(
  api: string,
  sku: string,
): Promise<{ id: string; url: string; primary: boolean }[]> {
  const answer = await call(api, `/product/${encodeURIComponent(sku)}/image`);
  if (answer.status !== 200) throw new Error(`GET /product/${sku}/image answered ${answer.status}`);
  return answer.body.result;
}

export async function productStatus(api: string, sku: string): Promise<number> {
  return (await call(api, `/product/${encodeURIComponent(sku)}`)).status;
}
