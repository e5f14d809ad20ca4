import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

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

/**
 * A guest's homepage paints its first screen from the HTML and the stylesheet (index.html's
 * static copy). Requested beside the stylesheet, the app's scripts (some 230 kB) share the
 * connection with it and hold that paint back; already at hand (fast link, warm cache), they are
 * evaluated first and the screen stays blank until React has rendered. So when index.html says
 * so (data-paint-first on <html>), the built page requests the scripts once that screen is on
 * screen: the entry and every module it imports statically at once (modulepreload, no
 * waterfall), then runs the entry. Other pages have only a loading frame to show: they request
 * the scripts at once, as Vite's tags would, and a hidden page, which paints no frame, starts.
 */
function paintBeforeScripts(): Plugin {
  return {
    name: 'shortlane:paint-before-scripts',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        const entry = /<script type="module" crossorigin src="([^"]+)"><\/script>/;
        const preload = /\s*<link rel="modulepreload" crossorigin href="([^"]+)">/g;
        const src = entry.exec(html)?.[1];
        if (!src) throw new Error('paintBeforeScripts: the built index.html has no entry script.');
        const modules = JSON.stringify([src, ...[...html.matchAll(preload)].map((m) => m[1]!)]);
        const requestModules = [
          `for (const href of ${modules}) {`,
          `const link = document.createElement('link');`,
          `link.rel = 'modulepreload'; link.crossOrigin = ''; link.href = href;`,
          `document.head.append(link); }`,
        ].join(' ');
        const paintFirst = `document.documentElement.hasAttribute('data-paint-first')`;
        // Classic, before the stylesheet: a module script would wait for the stylesheet.
        const early = `if (!${paintFirst}) { ${requestModules} }`;
        const start = [
          `const start = () => {`,
          `if (document.head.querySelector('link[rel=modulepreload]')) return;`,
          requestModules,
          `import(${JSON.stringify(src)}); };`,
          `if (!${paintFirst}) import(${JSON.stringify(src)});`,
          `else if (document.visibilityState === 'hidden') start();`,
          `else { requestAnimationFrame(() => setTimeout(start));`,
          `document.addEventListener('visibilitychange', start); }`,
        ].join(' ');
        return html
          .replace(preload, '')
          .replace(entry, `<script>${early}</script>\n    <script type="module">${start}</script>`);
      },
    },
  };
}

export default defineConfig({
  plugins: [react(), paintBeforeScripts()],
  server: { port: 5173, strictPort: true },
  preview: { port: 5173, strictPort: true },
  build: {
    sourcemap: true,
    // bench/bundle.ts reads the manifest to weigh what the first page loads.
    manifest: true,
    rolldownOptions: { output: { codeSplitting: { groups: [...vendorChunks, initialChunk] } } },
  },
});
