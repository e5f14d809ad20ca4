/**
 * `npm run bench:lighthouse [-- --desktop] [--runs N] [--save DIR] [--page NAME]`: Lighthouse on the production
 * build of the portal, served by `vite preview` as a CDN would serve it (scripts and stylesheets
 * in brotli, cached for good: support/brotli-assets.ts) against a fresh local stack with the demo
 * data, in Debian's Chromium (headless, no network beyond this machine). It prints the performance, accessibility and
 * best-practices scores of three first impressions (the home page as a guest, the dashboard and a
 * link's analytics signed in) with the load average, which says how far a busy machine skews
 * the performance figure. Targets: performance ≥ 90, accessibility 100, best practices ≥ 95.
 * Mobile emulation (Lighthouse's default) unless --desktop.
 *
 * One Lighthouse run is noisy (its simulated throttling scales with how busy the CPU is), so
 * `--runs N` audits each page N times and reports Lighthouse's own median run (the one nearest
 * the median FCP and TTI), with every run's score and load beside it. Below the table it prints
 * what made each median score: every metric's value, score and weight, the LCP element and its
 * phases, the longest critical request chain, render-blocking resources, unused JavaScript and
 * main-thread work. `--save DIR` writes each median run's full report (JSON) there.
 *
 * `--baseline REF` builds the portal as of a git revision too (say `--baseline HEAD~3`) and
 * audits both builds side by side, each page's runs alternating between them, so a busy
 * machine skews both alike: compare the two rows of a page, not a row with another day's.
 * Every audited build gets a line per page with the figures behind the performance score
 * (TBT, LCP, FCP, script evaluation and all main-thread work) and the load average.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { computeMedianRun } from 'lighthouse/core/lib/median-run.js';
import type * as LH from 'lighthouse';
import puppeteer, { type Browser } from 'puppeteer-core';
import { build, preview } from 'vite';
import { loadConfig, REPO_ROOT } from '../supabase/local/src/config.ts';
import { startStack } from '../supabase/local/src/stack.ts';
import { brotliAssets } from './support/brotli-assets.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const TARGETS = { performance: 90, accessibility: 100, 'best-practices': 95 } as const;
type Category = keyof typeof TARGETS;
const CATEGORIES = Object.keys(TARGETS) as Category[];
/** A demo user with links and analytics (supabase/seeds), and Pat's seeded podcast link. */
const DEMO_USER = { email: 'paid@shortlane.test', password: 'password123' };
const PODCAST_LINK_ID = '00000000-0000-4000-8000-000000002109';

const portalDir = path.join(REPO_ROOT, 'portal');
const desktop = process.argv.includes('--desktop');

/** The value after a `--name` flag on the command line, if any. */
function option(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? undefined : process.argv[at + 1];
}

const runs = Number(option('runs') ?? 1);
if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs takes a whole number ≥ 1.');
const saveDir = option('save');
const baselineRef = option('baseline');
/** `--page dashboard`: audit only the pages whose name starts so (one page's work, in less time). */
const onlyPage = option('page');

function log(message: string) {
  console.error(`[bench:lighthouse] ${message}`);
}

/** A password sign-in at the stack's Auth: the session as supabase-js would store it. */
async function signIn(supabaseUrl: string, anonKey: string): Promise<Record<string, unknown>> {
  const response = await fetch(`${supabaseUrl}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { apikey: anonKey, 'content-type': 'application/json' },
    body: JSON.stringify(DEMO_USER),
  });
  if (!response.ok) throw new Error(`Sign-in failed: ${response.status} ${await response.text()}`);
  const session = (await response.json()) as Record<string, unknown> & { expires_in: number };
  return { expires_at: Math.floor(Date.now() / 1000) + session.expires_in, ...session };
}

/** supabase-js's default storage key for a project URL (what the portal uses). */
function authStorageKey(supabaseUrl: string): string {
  return `sb-${new URL(supabaseUrl).hostname.split('.')[0]}-auth-token`;
}

interface Audit {
  page: string;
  scores: Record<Category, number>;
  /** The load average (1 min) after each run, in run order. */
  loads: number[];
  /** Which run is Lighthouse's median, the one described. */
  medianRun: number;
  /** Every run's performance score, in run order. */
  performanceRuns: number[];
  failing: string[];
  /** Where the page ended up: a redirect (to login, say) would mean another page was measured. */
  finalPath: string;
  /** The performance metrics behind the score, as Lighthouse displays them. */
  metrics: string;
  /** What made the performance score: the metrics' weights and Lighthouse's diagnostics. */
  breakdown: string[];
  /** The median run's figures, in ms: the ones to compare between builds. */
  figures: Figures;
}

interface Figures {
  tbt: number;
  lcp: number;
  fcp: number;
  /** Script evaluation on the main thread (Lighthouse's main-thread breakdown). */
  scripting: number;
  /** All main-thread work. */
  mainThread: number;
}

function figuresOf(lhr: LH.Result): Figures {
  const value = (id: string) => Math.round(lhr.audits[id]?.numericValue ?? 0);
  const scripting = tableItems(lhr, 'mainthread-work-breakdown').find(
    (item) => item.group === 'scriptEvaluation',
  );
  return {
    tbt: value('total-blocking-time'),
    lcp: value('largest-contentful-paint'),
    fcp: value('first-contentful-paint'),
    scripting: Math.round(Number(scripting?.duration ?? 0)),
    mainThread: value('mainthread-work-breakdown'),
  };
}

const METRICS = [
  ['first-contentful-paint', 'FCP'],
  ['largest-contentful-paint', 'LCP'],
  ['total-blocking-time', 'TBT'],
  ['cumulative-layout-shift', 'CLS'],
  ['speed-index', 'SI'],
] as const;

/**
 * One Lighthouse run of a page, signed in when the session has a value, as a guest when not:
 * runs alternate between pages, and Lighthouse's storage reset leaves local storage as it is,
 * so a guest's run takes the stored session out first.
 */
async function runLighthouse(
  browser: Browser,
  port: number,
  url: string,
  session: { key: string; value: string | null },
): Promise<LH.Result> {
  const page = await browser.newPage();
  // The portal reads its session from local storage on load, as after a real sign-in.
  await page.goto(new URL('/app/terms', url).href);
  // A string, not a function: this file is type-checked without the DOM's types.
  await page.evaluate(
    session.value == null
      ? `window.localStorage.removeItem(${JSON.stringify(session.key)})`
      : `window.localStorage.setItem(${JSON.stringify(session.key)}, ${JSON.stringify(session.value)})`,
  );
  const result = await lighthouse(
    url,
    {
      port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: CATEGORIES,
      disableStorageReset: session.value != null,
    },
    desktop ? desktopConfig : undefined,
    page,
  );
  await page.close();
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  return result.lhr;
}

const ms = (value: unknown) => `${Math.round(Number(value ?? 0))} ms`;
const kB = (value: unknown) => `${(Number(value ?? 0) / 1000).toFixed(1)} kB`;
/** A resource's address without the origin: the bench serves everything from one. */
const shortUrl = (value: unknown) => {
  const text = String(value ?? '?');
  return URL.canParse(text) ? new URL(text).pathname : text;
};

/** The rows of an audit's table (or opportunity) details, empty when it has none. */
function tableItems(lhr: LH.Result, id: string): Array<Record<string, unknown>> {
  const details = lhr.audits[id]?.details;
  if (details?.type === 'table' || details?.type === 'opportunity') {
    return details.items as Array<Record<string, unknown>>;
  }
  return [];
}

/**
 * Why the performance score is what it is: each metric's value, score and weight, then the
 * diagnostics that say where its time went (the lines a person would look up in the report).
 */
function performanceBreakdown(lhr: LH.Result): string[] {
  const lines: string[] = [];
  const refs = lhr.categories.performance?.auditRefs ?? [];
  lines.push(
    refs
      .filter((ref) => ref.weight > 0)
      .map((ref) => {
        const audit = lhr.audits[ref.id];
        const label = METRICS.find(([id]) => id === ref.id)?.[1] ?? ref.id;
        return `${label} ${audit?.displayValue ?? '?'} (score ${Math.round((audit?.score ?? 0) * 100)}, weight ${ref.weight})`;
      })
      .join(', '),
  );

  // The LCP element's details hold two tables: the element, then its phases.
  const lcp = lhr.audits['largest-contentful-paint-element']?.details;
  if (lcp?.type === 'list') {
    const [elementTable, phaseTable] = lcp.items as Array<{
      items?: Array<Record<string, unknown>>;
    }>;
    const node = elementTable?.items?.[0]?.node as { snippet?: string } | undefined;
    const phases = (phaseTable?.items ?? [])
      .map((item) => `${String(item.phase)} ${ms(item.timing)}`)
      .join(', ');
    lines.push(`LCP element ${node?.snippet?.slice(0, 90) ?? '?'}: ${phases}`);
  }

  const chains = lhr.audits['critical-request-chains']?.details as
    { longestChain?: { duration: number; length: number; transferSize: number } } | undefined;
  if (chains?.longestChain) {
    const { duration, length, transferSize } = chains.longestChain;
    lines.push(
      `longest critical request chain: ${length} requests, ${ms(duration)}, ${kB(transferSize)}`,
    );
  }

  const resources = tableItems(lhr, 'resource-summary');
  lines.push(
    `requests: ${resources
      .filter((item) => Number(item.requestCount) > 0)
      .map(
        (item) => `${String(item.label)} ${String(item.requestCount)} (${kB(item.transferSize)})`,
      )
      .join(', ')}`,
  );

  const blocking = tableItems(lhr, 'render-blocking-resources');
  if (blocking.length > 0) {
    lines.push(
      `render-blocking: ${blocking.map((item) => `${shortUrl(item.url)} ${ms(item.wastedMs)}`).join(', ')}`,
    );
  }

  const unused = tableItems(lhr, 'unused-javascript');
  if (unused.length > 0) {
    lines.push(
      `unused JavaScript: ${unused
        .slice(0, 4)
        .map((item) => `${shortUrl(item.url)} ${kB(item.wastedBytes)} of ${kB(item.totalBytes)}`)
        .join(', ')}`,
    );
  }

  const mainThread = tableItems(lhr, 'mainthread-work-breakdown');
  lines.push(
    `main thread ${lhr.audits['mainthread-work-breakdown']?.displayValue ?? '?'}: ${mainThread
      .slice(0, 4)
      .map((item) => `${String(item.groupLabel)} ${ms(item.duration)}`)
      .join(', ')}`,
  );
  const bootup = tableItems(lhr, 'bootup-time');
  if (bootup.length > 0) {
    lines.push(
      `script time: ${bootup
        .slice(0, 4)
        .map((item) => `${shortUrl(item.url)} ${ms(item.total)}`)
        .join(', ')}`,
    );
  }
  const longTasks = tableItems(lhr, 'long-tasks');
  if (longTasks.length > 0) {
    lines.push(
      `long tasks: ${longTasks
        .slice(0, 5)
        .map((item) => `${ms(item.duration)} at ${ms(item.startTime)} (${shortUrl(item.url)})`)
        .join(', ')}`,
    );
  }
  return lines;
}

interface Run {
  lhr: LH.Result;
  /** The load average (1 min) just after the run. */
  load: number;
}

/** One page of one build: its name as printed and its address. */
interface Target {
  page: string;
  build: string;
  url: string;
  session: { key: string; value: string | null };
}

/**
 * Audits every target `runs` times: round by round, every target once per round, the order of a
 * page's builds swapped every other round, so the load of the moment falls on each alike.
 */
async function auditAll(browser: Browser, port: number, targets: Target[]): Promise<Run[][]> {
  const results: Run[][] = targets.map(() => []);
  const pages = [...new Set(targets.map((target) => target.page))];
  for (let run = 0; run < runs; run += 1) {
    for (const page of pages) {
      const builds = targets.flatMap((target, index) => (target.page === page ? [index] : []));
      if (run % 2 === 1) builds.reverse();
      for (const index of builds) {
        const target = targets[index]!;
        const lhr = await runLighthouse(browser, port, target.url, target.session);
        results[index]!.push({ lhr, load: os.loadavg()[0]! });
      }
    }
  }
  return results;
}

/** Describes Lighthouse's median run of a target's runs. */
function describe(target: Target, results: Run[]): Audit {
  const name = baselineRef ? `${target.page} [${target.build}]` : target.page;
  // median-run.d.ts names the global LH namespace, which this project lacks: its types say any.
  const lhr: LH.Result = computeMedianRun(results.map((result) => result.lhr));
  const medianRun = results.findIndex((result) => result.lhr === lhr);
  if (saveDir) {
    fs.mkdirSync(saveDir, { recursive: true });
    const file = path.join(saveDir, `${name.replace(/\W+/g, '-').replace(/-$/, '')}.json`);
    fs.writeFileSync(file, JSON.stringify(lhr));
  }
  const performanceOf = (report: LH.Result) =>
    Math.round((report.categories.performance?.score ?? 0) * 100);
  const scores = Object.fromEntries(
    CATEGORIES.map((category) => [
      category,
      Math.round((lhr.categories[category]?.score ?? 0) * 100),
    ]),
  ) as Record<Category, number>;
  // What costs points in the categories with a target short of the score: the audits to fix.
  const failing = CATEGORIES.filter((category) => category !== 'performance').flatMap((category) =>
    (lhr.categories[category]?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1)
      .map((ref) => `${category}: ${ref.id} (${lhr.audits[ref.id]?.title ?? ''})`),
  );
  // What moved: the elements behind the layout-shift score, largest first.
  const shifts = lhr.audits['layout-shifts']?.details;
  if (shifts?.type === 'table') {
    for (const item of shifts.items.slice(0, 5)) {
      const node = item.node as { snippet?: string; selector?: string } | undefined;
      failing.push(
        `performance: layout shift ${Number(item.score ?? 0).toFixed(3)} of ${node?.selector ?? '?'} ${node?.snippet?.slice(0, 100) ?? ''}`,
      );
    }
  }
  const finalPath = new URL(lhr.finalDisplayedUrl).pathname;
  const metrics = METRICS.map(
    ([id, label]) => `${label} ${lhr.audits[id]?.displayValue ?? '?'}`,
  ).join(', ');
  return {
    page: name,
    scores,
    loads: results.map((result) => result.load),
    medianRun,
    performanceRuns: results.map((result) => performanceOf(result.lhr)),
    failing,
    finalPath,
    metrics,
    breakdown: performanceBreakdown(lhr),
    figures: figuresOf(lhr),
  };
}

/**
 * The portal and shared sources (and the tsconfig they extend) as of `ref`, extracted under .local (inside the repository, so
 * they resolve this checkout's node_modules; the portal's own node_modules linked in).
 */
function extractBaseline(ref: string): string {
  const dir = path.join(REPO_ROOT, '.local', 'lighthouse-baseline');
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const archive = execFileSync(
    'git',
    ['archive', '--format=tar', ref, 'tsconfig.json', 'portal', 'shared'],
    {
      cwd: REPO_ROOT,
      maxBuffer: 1 << 30,
    },
  );
  execFileSync('tar', ['-x', '-C', dir], { input: archive });
  const modules = path.join(portalDir, 'node_modules');
  if (fs.existsSync(modules)) fs.symlinkSync(modules, path.join(dir, 'portal', 'node_modules'));
  return dir;
}

/** A production build of the portal at `root`, served as a CDN would on `port`. */
async function buildAndServe(
  root: string,
  port: number,
  sharedDir?: string,
): Promise<{ server: Awaited<ReturnType<typeof preview>>; outDir: string }> {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shortlane-portal-lighthouse-'));
  // The baseline's own shared sources, not this checkout's (the workspace link points here).
  const resolve = sharedDir
    ? { alias: [{ find: /^@shortlane\/shared\//, replacement: `${sharedDir}/` }] }
    : undefined;
  await build({ root, logLevel: 'warn', resolve, build: { outDir, emptyOutDir: true } });
  const server = await preview({
    root,
    logLevel: 'warn',
    build: { outDir },
    plugins: [await brotliAssets(outDir)],
    preview: { port, strictPort: true, host: '127.0.0.1' },
  });
  return { server, outDir };
}

async function main() {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}.`);
  process.env.STACK_GATEWAY_PORT ??= '28321';
  process.env.STACK_DB_PORT ??= '28322';
  process.env.STACK_MAIL_PORT ??= '28324';
  process.env.STACK_WATCH_FUNCTIONS = 'false';
  const previewPort = Number(process.env.BENCH_PORTAL_PORT ?? 28173);
  const config = loadConfig({
    stateDir: path.resolve(REPO_ROOT, process.env.STACK_STATE_DIR ?? '.local/bench-lighthouse'),
  });
  fs.rmSync(config.stateDir, { recursive: true, force: true });
  log('starting a fresh stack with the demo data…');
  const stack = await startStack(config, () => {});
  let chrome: chromeLauncher.LaunchedChrome | undefined;
  const served: Array<Awaited<ReturnType<typeof buildAndServe>>> = [];
  let extracted: string | undefined;
  try {
    const { SUPABASE_URL, SUPABASE_ANON_KEY } = stack.env;
    process.env.VITE_SUPABASE_URL = SUPABASE_URL;
    process.env.VITE_SUPABASE_ANON_KEY = SUPABASE_ANON_KEY;
    process.env.VITE_SHORT_URL_BASE = `http://{domain}:${new URL(SUPABASE_URL).port}`;
    log('building the portal…');
    served.push(await buildAndServe(portalDir, previewPort));
    const builds = [{ build: 'current', origin: `http://127.0.0.1:${previewPort}` }];
    if (baselineRef) {
      log(`building the portal as of ${baselineRef}…`);
      const dir = extractBaseline(baselineRef);
      extracted = dir;
      served.push(
        await buildAndServe(
          path.join(dir, 'portal'),
          previewPort + 1,
          path.join(dir, 'shared', 'src'),
        ),
      );
      builds.push({ build: baselineRef, origin: `http://127.0.0.1:${previewPort + 1}` });
    }

    chrome = await chromeLauncher.launch({
      chromePath: CHROMIUM,
      chromeFlags: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        // Loopback only: nothing may reach out (fonts, analytics…), as on an offline CI machine.
        '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE *.localhost, EXCLUDE 127.0.0.1',
      ],
    });
    const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
    const session = {
      key: authStorageKey(SUPABASE_URL),
      value: JSON.stringify(await signIn(SUPABASE_URL, SUPABASE_ANON_KEY)),
    };

    const pages = [
      { page: 'home (guest)', path: '/app', session: { key: session.key, value: null } },
      { page: 'dashboard', path: '/app/dashboard', session },
      { page: 'analytics', path: `/app/analytics/${PODCAST_LINK_ID}`, session },
    ];
    const audited = pages.filter(({ page }) => onlyPage == null || page.startsWith(onlyPage));
    if (audited.length === 0) throw new Error(`--page ${onlyPage} names none of the pages.`);
    const targets: Target[] = audited.flatMap(({ page, path: pagePath, session: signedIn }) =>
      builds.map(({ build: name, origin }) => ({
        page,
        build: name,
        url: `${origin}${pagePath}`,
        session: signedIn,
      })),
    );
    log(`auditing (${desktop ? 'desktop' : 'mobile'})…`);
    const runsByTarget = await auditAll(browser, chrome.port, targets);
    const results = targets.map((target, index) => describe(target, runsByTarget[index]!));
    await browser.disconnect();

    console.log(
      `Portal, production build, Lighthouse ${desktop ? 'desktop' : 'mobile'} (cores: ${os.cpus().length}${runs > 1 ? `, median of ${runs} runs` : ''})`,
    );
    const width = Math.max(16, ...results.map((row) => row.page.length));
    console.log(
      `  ${'page'.padEnd(width)} ${'performance'.padStart(12)} ${'accessibility'.padStart(14)} ${'best practices'.padStart(15)} ${'load avg'.padStart(9)}  shown`,
    );
    for (const row of results) {
      console.log(
        `  ${row.page.padEnd(width)} ${String(row.scores.performance).padStart(12)} ${String(row.scores.accessibility).padStart(14)} ${String(row.scores['best-practices']).padStart(15)} ${row.loads[row.medianRun]!.toFixed(2).padStart(9)}  ${row.finalPath}`,
      );
    }
    console.log(
      `  targets: performance ≥ ${TARGETS.performance}, accessibility ${TARGETS.accessibility}, best practices ≥ ${TARGETS['best-practices']}`,
    );
    // The figures behind the performance score, side by side (ms, the median run's).
    console.log(
      `  ${'figures (ms)'.padEnd(width)} ${'TBT'.padStart(6)} ${'LCP'.padStart(6)} ${'FCP'.padStart(6)} ${'scripting'.padStart(10)} ${'main thread'.padStart(12)} ${'load avg'.padStart(9)}`,
    );
    for (const row of results) {
      const { tbt, lcp, fcp, scripting, mainThread } = row.figures;
      console.log(
        `  ${row.page.padEnd(width)} ${String(tbt).padStart(6)} ${String(lcp).padStart(6)} ${String(fcp).padStart(6)} ${String(scripting).padStart(10)} ${String(mainThread).padStart(12)} ${row.loads[row.medianRun]!.toFixed(2).padStart(9)}`,
      );
    }
    for (const row of results) {
      console.log(`  ${row.page}: ${row.metrics}`);
      if (runs > 1) {
        console.log(
          `    runs (performance at load avg): ${row.performanceRuns.map((score, run) => `${run === row.medianRun ? '*' : ''}${score} at ${row.loads[run]!.toFixed(2)}`).join(', ')} (* the median run)`,
        );
      }
      for (const line of row.breakdown) console.log(`    ${line}`);
    }
    for (const row of results) {
      for (const line of row.failing) console.log(`  ${row.page}: ${line}`);
    }
    // The targets are the current build's; a baseline is there to compare with.
    const missed = results.some(
      (row, index) =>
        targets[index]!.build === 'current' &&
        CATEGORIES.some((category) => row.scores[category] < TARGETS[category]),
    );
    if (missed) process.exitCode = 1;
  } finally {
    if (chrome) chrome.kill();
    for (const { server, outDir } of served) {
      await new Promise<void>((resolve) => server.httpServer.close(() => resolve()));
      fs.rmSync(outDir, { recursive: true, force: true });
    }
    if (extracted) fs.rmSync(extracted, { recursive: true, force: true });
    await stack.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
