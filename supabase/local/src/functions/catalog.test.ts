import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { StackError } from '../errors.ts';
import { FunctionCatalog } from './catalog.ts';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A Supabase project folder with the given files (path → contents). */
function project(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'shortlane-catalog-'));
  made.push(root);
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  }
  return path.join(root, 'functions');
}

const serve = 'Deno.serve(() => new Response("ok"));\n';

describe('FunctionCatalog', () => {
  it('lists folders with an index.ts, never _shared, dot-folders or bad slugs', () => {
    const catalog = new FunctionCatalog(
      project({
        'functions/whoami/index.ts': serve,
        'functions/create-link/index.ts': serve,
        'functions/_shared/index.ts': serve,
        'functions/.hidden/index.ts': serve,
        'functions/9lives/index.ts': serve,
        'functions/no-entry/main.ts': serve,
        'functions/deno.json': '{}',
      }),
    );
    expect(catalog.names()).toEqual(['create-link', 'whoami']);
    expect(catalog.exists('whoami')).toBe(true);
    for (const name of ['_shared', '.hidden', 'no-entry', '..', 'whoami/..', ''])
      expect(catalog.exists(name), name).toBe(false);
  });

  it('serves a function added meanwhile at once, and one removed once the window has passed', async () => {
    const dir = project({ 'functions/whoami/index.ts': serve });
    const catalog = new FunctionCatalog(dir, 50);
    expect(catalog.exists('late')).toBe(false);
    fs.mkdirSync(path.join(dir, 'late'));
    fs.writeFileSync(path.join(dir, 'late', 'index.ts'), serve);
    expect(catalog.exists('late')).toBe(true);
    fs.rmSync(path.join(dir, 'late'), { recursive: true });
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(catalog.exists('late')).toBe(false);
  });

  it('has no functions when the folder is missing', () => {
    // Inside a fresh folder of its own: the catalog also reads config.toml from the parent.
    const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'shortlane-catalog-'));
    expect(new FunctionCatalog(path.join(parent, 'functions')).names()).toEqual([]);
  });

  it('verifies JWTs unless config.toml turns it off for that function', () => {
    const catalog = new FunctionCatalog(
      project({
        'config.toml': '[functions.billing-webhook]\nverify_jwt = false\n\n[functions.whoami]\n',
        'functions/billing-webhook/index.ts': serve,
        'functions/whoami/index.ts': serve,
      }),
    );
    expect(catalog.settings('billing-webhook')).toEqual({ verifyJwt: false });
    expect(catalog.settings('whoami')).toEqual({ verifyJwt: true });
    expect(catalog.settings('unlisted')).toEqual({ verifyJwt: true });
  });

  it('re-reads config.toml on demand', () => {
    const dir = project({ 'config.toml': '', 'functions/hook/index.ts': serve });
    const catalog = new FunctionCatalog(dir);
    expect(catalog.settings('hook').verifyJwt).toBe(true);
    fs.writeFileSync(catalog.configFile, '[functions.hook]\nverify_jwt = false\n');
    catalog.reloadSettings();
    expect(catalog.settings('hook').verifyJwt).toBe(false);
  });

  it('refuses a verify_jwt that is not a boolean, naming the key', () => {
    const dir = project({ 'config.toml': '[functions.hook]\nverify_jwt = "no"\n' });
    expect(() => new FunctionCatalog(dir)).toThrow(StackError);
    expect(() => new FunctionCatalog(dir)).toThrow(
      /functions\.hook\.verify_jwt must be true or false/,
    );
  });
});
