import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

const apiPort = Number(process.env.API_PORT ?? 3000);

export default defineConfig({
  plugins: [react(), tailwindcss()],
  // No source maps in the build: they would publish the source of every screen.
  build: { outDir: 'dist/web', emptyOutDir: true, sourcemap: false, manifest: true },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: `http://127.0.0.1:${apiPort}`, changeOrigin: false },
      '/hero': { target: `http://127.0.0.1:${apiPort}` },
    },
  },
});
