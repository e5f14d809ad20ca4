import { useQuery } from '@tanstack/react-query';
import { SKIP_GLOBAL_ERRORS_HEADER } from '../api/globalResponses.ts';
import { useSupabase } from '../lib/servicesContext.ts';
import { unwrap } from './unwrap.ts';

/** public.preview_link's answer (migration 002900): where a short link goes; counts nothing. */
export interface LinkPreview {
  domain: string;
  alias: string;
  state: 'active' | 'blocked' | 'inactive' | 'expired' | 'not_found';
  safe: boolean;
  url: string | null;
  host: string | null;
}

/** The preview of an alias (on a domain, or the default one); null when there is no such link. */
export function useLinkPreviewQuery(alias: string, domain: string | null) {
  const supabase = useSupabase();
  return useQuery({
    // Public, not a user's: its own root.
    queryKey: ['link-preview', domain, alias] as const,
    enabled: alias !== '',
    queryFn: async (): Promise<LinkPreview | null> => {
      const rows = unwrap(
        await supabase
          .rpc('preview_link', { p_alias: alias, ...(domain ? { p_domain: domain } : {}) })
          .setHeader(SKIP_GLOBAL_ERRORS_HEADER, '1'),
      );
      const [row] = rows;
      return row ? (row as LinkPreview) : null;
    },
  });
}
