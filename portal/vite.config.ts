import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * The customer portal. Port 5173 unless the command line says otherwise
 * (`vite --port 59173`, as `npm start` and the e2e suite do); VITE_SUPABASE_URL and
 * VITE_SUPABASE_ANON_KEY come from the environment or a `.env` file here.
 */

// Libraries change less often than the app: separate chunks stay cached across releases.
// Mantine is left out on purpose: grouped, every component any lazy page or modal uses would
// load with the first page; split, each one travels with the code that needs it.
const vendorChunks = [
  { name: 'react', test: /[\\/]node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/ },
  { name: 'supabase', test: /[\\/]node_modules[\\/]@supabase[\\/]/ },
];
// What the first page loads anyway (the entry and everything it imports statically) travels as
// one chunk: split by sharing, it made some thirty files of a few hundred bytes each, a round trip
// apiece on a slow connection. Lazy chunks still take only what the entry lacks.
const initialChunk = { name: 'initial', tags: ['$initial' as const] };

export default defineConfig({
  plugins: [react()],
  server: { port: 5173, strictPort: true },
  preview: { port: 5173, strictPort: true },
  build: {
    sourcemap: true,
    // bench/bundle.ts reads the manifest to weigh what the first page loads.
    manifest: true,
    rolldownOptions: { output: { codeSplitting: { groups: [...vendorChunks, initialChunk] } } },
  },
});
