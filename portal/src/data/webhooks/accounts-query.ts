import { useQuery } from '@tanstack/react-query';
import { useSupabase } from '../../lib/servicesContext.ts';
import type { PortalSupabase } from '../../lib/supabase.ts';
import { unwrap } from '../unwrap.ts';
import { useUserId } from '../use-user-id.ts';
import { webhookKeys } from './keys.ts';

export type WebhookAccountKind = 'personal' | 'team' | 'organization';

export interface WebhookAccount {
  accountId: string;
  kind: WebhookAccountKind;
  name: string;
}

const KINDS: readonly string[] = ['personal', 'team', 'organization'];
const isKind = (kind: string): kind is WebhookAccountKind => KINDS.includes(kind);

/**
 * The accounts whose webhooks the user may manage (public.webhook_accounts: the rule the
 * webhook policies apply), personal first, then teams, then organizations.
 */
export async function fetchWebhookAccounts(supabase: PortalSupabase): Promise<WebhookAccount[]> {
  const rows = unwrap(await supabase.rpc('webhook_accounts'));
  return rows.flatMap((row) =>
    isKind(row.kind) ? [{ accountId: row.account_id, kind: row.kind, name: row.name }] : [],
  );
}

export function useWebhookAccountsQuery() {
  const supabase = useSupabase();
  const userId = useUserId();
  return useQuery({
    queryKey: webhookKeys.accounts(userId ?? ''),
    queryFn: () => fetchWebhookAccounts(supabase),
    enabled: userId != null,
  });
}
