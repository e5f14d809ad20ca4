import fs from 'node:fs';
import path from 'node:path';
import { StackError } from '../errors.ts';
import { readSupabaseConfig } from '../supabase-config.ts';

/** A function's slug as the Supabase CLI accepts it; `_shared` and dot-folders never match. */
const FUNCTION_NAME = /^[A-Za-z][A-Za-z0-9_-]*$/;

export interface FunctionSettings {
  /** Refuse requests without a valid JWT before they reach the function (Supabase's default). */
  verifyJwt: boolean;
}

/**
 * The functions folder laid out as the Supabase CLI expects: `<name>/index.ts` per function,
 * settings in `[functions.<name>]` of the config.toml in the folder above.
 */
export class FunctionCatalog {
  private settingsByName = new Map<string, FunctionSettings>();
  /** Functions found on disk, each until when it is believed without another look. */
  private foundUntil = new Map<string, number>();

  /** `foundForMs`: how long a function found on disk is believed without another look. */
  constructor(
    readonly dir: string,
    private readonly foundForMs = 1_000,
  ) {
    this.reloadSettings();
  }

  get configFile(): string {
    return path.join(path.dirname(this.dir), 'config.toml');
  }

  entrypoint(name: string): string {
    return path.join(this.dir, name, 'index.ts');
  }

  /**
   * A function folder added while the stack runs is served from its first request: only a found
   * function is remembered, for `foundForMs`, so that a hot function costs no `stat` per
   * request (a folder removed is refused at most that long after).
   */
  exists(name: string): boolean {
    const now = Date.now();
    if ((this.foundUntil.get(name) ?? 0) > now) return true;
    const found =
      FUNCTION_NAME.test(name) &&
      fs.statSync(this.entrypoint(name), { throwIfNoEntry: false })?.isFile() === true;
    if (found) this.foundUntil.set(name, now + this.foundForMs);
    else this.foundUntil.delete(name);
    return found;
  }

  names(): string[] {
    if (!fs.existsSync(this.dir)) return [];
    return fs
      .readdirSync(this.dir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && this.exists(entry.name))
      .map((entry) => entry.name)
      .sort();
  }

  settings(name: string): FunctionSettings {
    return this.settingsByName.get(name) ?? { verifyJwt: true };
  }

  /** Re-reads config.toml; a malformed `[functions]` table is an error naming the key. */
  reloadSettings(): void {
    const next = new Map<string, FunctionSettings>();
    if (fs.existsSync(this.configFile)) {
      const functions = readSupabaseConfig(path.dirname(this.configFile)).functions ?? {};
      if (typeof functions !== 'object' || functions === null || Array.isArray(functions))
        throw new StackError(`${this.configFile}: [functions] must be a table of functions.`);
      for (const [name, table] of Object.entries(functions as Record<string, unknown>)) {
        const verifyJwt = (table as Record<string, unknown> | null)?.verify_jwt ?? true;
        if (typeof verifyJwt !== 'boolean')
          throw new StackError(
            `${this.configFile}: functions.${name}.verify_jwt must be true or false, got ${JSON.stringify(verifyJwt)}.`,
          );
        next.set(name, { verifyJwt });
      }
    }
    this.settingsByName = next;
  }
}
