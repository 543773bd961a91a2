import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

// `npm run dev -w @palisade/ui` proxies /api to a running Admin API (ADMIN_API_URL), like `palisade ui`.
export default defineConfig({
  plugins: [react()],
  // The mapping presets are data shared with the gateway: core/src/mapping/presets.ts and the vendor folders it gathers (core/src/vendors), plain data without Node imports.
  // The root node_modules holds React 18 (the API docs' redoc); hoisted libraries must use the app's 19.
  resolve: {
    dedupe: ['react', 'react-dom'],
    alias: [
      { find: '@palisade/mapping-presets', replacement: fileURLToPath(new URL('../../core/src/mapping/presets.ts', import.meta.url)) },
      { find: /^(react|react-dom)(\/.*)?$/, replacement: fileURLToPath(new URL('../node_modules/', import.meta.url)) + '$1$2' },
    ],
  },
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 1500 },
  server: { port: 4200, proxy: { '/api': process.env.ADMIN_API_URL ?? 'http://127.0.0.1:8001' } },
  test: {
    environment: 'jsdom', include: ['src/**/*.test.ts', 'src/**/*.test.tsx'], setupFiles: ['src/testing/setup.ts'], css: false,
    // Mounting a whole generated form in jsdom takes seconds on a loaded 2-core machine: the limit only
    // catches a hang, it is no speed check.
    testTimeout: 30_000,
    // @rjsf/mantine imports dayjs plugins without their .js extension, which Node's ESM loader refuses.
    // Mantine and the libraries it imports are hoisted to the root, beside React 18: bundled by vite
    // too, so that the alias above gives them the app's React; react-number-format by its ES build
    // (its CommonJS build would require React past the alias).
    server: { deps: { inline: [/@rjsf\//, /@mantine\//, /react-number-format/, /@floating-ui\//] } },
    alias: [{ find: /^react-number-format$/, replacement: fileURLToPath(new URL('../../node_modules/react-number-format/dist/react-number-format.es.js', import.meta.url)) }],
  },
});
