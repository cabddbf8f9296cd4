import { createHash } from 'node:crypto';

/** Colours per category, so the demo shop looks sorted at a glance. */
const PALETTE: Record<string, [string, string]> = {
  BARS: ['#2f3e46', '#cad2c5'],
  SEATING: ['#6d597a', '#f2e9e4'],
  TABLES: ['#7f5539', '#ede0d4'],
  LIGHTING: ['#b08968', '#fff8e7'],
  LINENS: ['#588157', '#f1faee'],
  DECOR: ['#9d4edd', '#f8edeb'],
  Warehouse: ['#495057', '#e9ecef'],
};

const escapeXml = (text: string) =>
  text.replace(
    /[<>&'"]/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c] ?? c,
  );

/**
 * A small SVG picture for a demo product (a few hundred bytes, far under the spec's 100 KB limit):
 * the category's colours, a shape that differs per view, the product name and "view n of m".
 * Generated, not downloaded: the demo works offline.
 */
export function demoImageSvg(name: string, category: string, view: number, views: number): string {
  const [dark, light] = PALETTE[category] ?? ['#343a40', '#f8f9fa'];
  const shapes = [
    `<circle cx="200" cy="120" r="60" fill="${dark}" opacity="0.85"/>`,
    `<rect x="130" y="60" width="140" height="120" rx="12" fill="${dark}" opacity="0.85"/>`,
    `<polygon points="200,50 280,180 120,180" fill="${dark}" opacity="0.85"/>`,
    `<ellipse cx="200" cy="120" rx="110" ry="45" fill="${dark}" opacity="0.85"/>`,
    `<path d="M110 180 Q200 20 290 180 Z" fill="${dark}" opacity="0.85"/>`,
  ];
  return [
    '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300" viewBox="0 0 400 300">',
    `<rect width="400" height="300" fill="${light}"/>`,
    shapes[(view - 1) % shapes.length],
    `<text x="200" y="235" font-family="Georgia, serif" font-size="22" text-anchor="middle" fill="${dark}">${escapeXml(name)}</text>`,
    `<text x="200" y="265" font-family="Arial, sans-serif" font-size="13" text-anchor="middle" fill="${dark}">view ${view} of ${views}</text>`,
    '</svg>',
  ].join('');
}

/** Short content hash: image keys and ids change when the picture does. */
export function contentHash(content: string): string {
  return createHash('sha256').update(content).digest('hex').slice(0, 12);
}
