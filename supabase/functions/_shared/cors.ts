/**
 * CORS for browser callers (portal, kiosk). Supabase's gateway answers preflights itself under
 * `supabase start`, but hosted projects pass OPTIONS through to the function, so every function
 * answers it the same way.
 */
export const corsHeaders: Readonly<Record<string, string>> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Headers': 'authorization, x-client-info, apikey, content-type, x-region',
  'Access-Control-Allow-Methods': 'GET, POST, PUT, PATCH, DELETE, OPTIONS',
};

/** The answer to a CORS preflight, or undefined when the request is not one. */
export function preflight(request: Request): Response | undefined {
  if (request.method !== 'OPTIONS') return undefined;
  return new Response('ok', { headers: corsHeaders });
}
