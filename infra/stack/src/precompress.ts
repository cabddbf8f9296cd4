import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/** Text assets worth compressing; images here are SVG (text) too. */
const COMPRESSIBLE = new Set(['.js', '.css', '.html', '.json', '.svg', '.txt']);
const MIN_BYTES = 1024;

/**
 * Writes `<file>.br` and `<file>.gz` beside every compressible file of a built frontend, once (a
 * compressed copy newer than its source is kept). The gateway's static files plugin serves them
 * (`preCompressed`) to browsers that accept them, so nothing is compressed per request.
 */
export function precompress(dir: string): number {
  let written = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      written += precompress(file);
      continue;
    }
    if (!COMPRESSIBLE.has(path.extname(entry.name))) continue;
    const source = statSync(file);
    if (source.size < MIN_BYTES) continue;
    const fresh = (copy: string) => {
      try {
        return statSync(copy).mtimeMs >= source.mtimeMs;
      } catch {
        return false;
      }
    };
    if (fresh(`${file}.br`) && fresh(`${file}.gz`)) continue;
    const body = readFileSync(file);
    writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }));
    writeFileSync(
      `${file}.br`,
      brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 10 } }),
    );
    written += 1;
  }
  return written;
}
