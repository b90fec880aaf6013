// Builds the dashboard (web/src) into web/dist, which Muster serves at / (src/http/routes/web-client.ts).
import { defineConfig } from 'vite';

export default defineConfig({
  base: '/',
  publicDir: 'public',
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
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
