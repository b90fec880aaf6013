// Builds the dashboard (web/src) into web/dist, which Muster serves at / (src/http/routes/web-client.ts).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { defineConfig } from 'vite';
import type { Plugin } from 'vite';

/**
 * Writes a Brotli (.br) and a gzip (.gz) copy beside every text file of the build, compressed
 * once at their best here, so the server sends them as they are (@fastify/static's
 * preCompressed) instead of compressing the same bytes on every request
 * (docs/http-api.md#compression).
 */
function precompress(outDir: string): Plugin {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)],
    );
  return {
    name: 'muster-precompress',
    apply: 'build',
    closeBundle() {
      const sizes = { raw: 0, gzip: 0, brotli: 0 };
      for (const file of walk(outDir).filter((f) => /\.(?:html|js|css|svg|json)$/.test(f))) {
        const bytes = readFileSync(file);
        const br = brotliCompressSync(bytes, {
          params: { [constants.BROTLI_PARAM_QUALITY]: 11 },
        });
        const gz = gzipSync(bytes, { level: 9 });
        writeFileSync(`${file}.br`, br);
        writeFileSync(`${file}.gz`, gz);
        if (/\.(?:js|css)$/.test(file)) {
          sizes.raw += bytes.length;
          sizes.gzip += gz.length;
          sizes.brotli += br.length;
        }
      }
      // The size a first visit downloads, said on every build (docs/operations.md#web-client).
      const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
      console.log(
        `dashboard bundle (script + style): ${kb(sizes.raw)}, ${kb(sizes.gzip)} gzipped, ` +
          `${kb(sizes.brotli)} with Brotli`,
      );
    },
  };
}

export default defineConfig({
  base: '/',
  publicDir: 'public',
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
  plugins: [precompress(join(import.meta.dirname, 'dist'))],
  resolve: {
    // The one CSV writer (src/domain/csv-record.ts) imports csv-stringify's Node build, which
    // needs Node's Buffer; the browser gets the same writer's own browser build.
    alias: [{ find: /^csv-stringify\/sync$/, replacement: 'csv-stringify/browser/esm/sync' }],
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // No inline scripts or data: modules, so the page keeps a strict Content-Security-Policy.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    reportCompressedSize: true,
  },
});
