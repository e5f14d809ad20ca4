/**
 * Auth's SSO provider administration (/auth/v1/admin/sso/providers), with the service role: the
 * one place an organization's identity provider reaches Auth. Never called from a browser.
 */
import { requireEnv } from '../_shared/env.ts';
import { HttpError } from '../_shared/http.ts';

export interface ProviderInput {
  metadata_url?: string;
  metadata_xml?: string;
  domains: string[];
}

export interface AuthProvider {
  id: string;
  saml: { entity_id: string; metadata_url?: string };
  domains: { domain: string }[];
}

async function call(method: string, path: string, body?: unknown): Promise<AuthProvider> {
  const key = requireEnv('SUPABASE_SERVICE_ROLE_KEY');
  const response = await fetch(`${requireEnv('SUPABASE_URL')}/auth/v1/admin/sso/providers${path}`, {
    method,
    headers: {
      apikey: key,
      Authorization: `Bearer ${key}`,
      'Content-Type': 'application/json',
      'X-Supabase-Api-Version': '2024-01-01',
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (!response.ok) {
    // Auth's refusal of the metadata (not HTTPS, no EntityID, already registered…) is the
    // customer's to fix: its message goes back as a field error.
    const message =
      typeof answer.message === 'string' ? answer.message : 'Auth refused the request';
    const status = response.status >= 500 ? 502 : 422;
    throw new HttpError(status, message, String(answer.code ?? 'idp_refused'), {
      metadata: [message],
    });
  }
  return answer as unknown as AuthProvider;
}

export const createProvider = (input: ProviderInput) =>
  call('POST', '', { type: 'saml', ...input });

export const updateProvider = (id: string, input: Partial<ProviderInput>) =>
  call('PUT', `/${id}`, input);

export const deleteProvider = (id: string) => call('DELETE', `/${id}`);
