import type { StackConfig } from './config.ts';

export interface RunningFunctions {
  /** Loopback port that serves /<function-name>/... */
  port: number;
  stop(): Promise<void>;
}

/** Serves supabase/functions/* with real Deno. */
export async function startFunctions(
  _config: StackConfig,
  _log: (line: string) => void,
): Promise<RunningFunctions | undefined> {
  return undefined;
}
