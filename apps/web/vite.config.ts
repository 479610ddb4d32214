import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// Built into dist/, which the server serves at / (apps/server/src/platform/web-ui.ts).
export default defineConfig({
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false },
  server: { proxy: { '/api': 'http://127.0.0.1:8080' } },
});
