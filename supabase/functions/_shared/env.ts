/** Reads a variable the runtime must provide, failing with a message that names it. */
export function requireEnv(name: string): string {
  const value = Deno.env.get(name);
  if (!value) throw new Error(`The environment variable ${name} is not set`);
  return value;
}
