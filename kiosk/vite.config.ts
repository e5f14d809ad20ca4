import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * The staff kiosk. Port 5174 unless the command line says otherwise (`vite --port 59174`);
 * VITE_SUPABASE_URL and VITE_SUPABASE_ANON_KEY come from the environment or a `.env` file here.
 */
export default defineConfig({
  plugins: [react()],
  server: { port: 5174, strictPort: true },
  preview: { port: 5174, strictPort: true },
  build: { sourcemap: true, chunkSizeWarningLimit: 2_000 },
});
