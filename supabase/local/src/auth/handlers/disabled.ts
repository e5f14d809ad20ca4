import { requireAdmin, requireAuthentication } from '../authenticate.ts';
import type { AuthContext } from '../context.ts';
import { badRequest, notFound } from '../errors.ts';
import type { Router } from '../router.ts';
import { OAUTH_PROVIDERS } from './meta.ts';

/**
 * Features the project leaves off (SAML unless [auth.saml] enables it, no manual linking, no OAuth
 * provider) answer as GoTrue answers them when they are off, in JSON that clients parse into an
 * AuthError: requireSAMLEnabled on the whole /sso tree, requireManualLinkingEnabled on
 * /user/identities (after requireAuthentication, as GoTrue mounts it under /user), and
 * /authorize's provider lookup.
 */

/** Providers GoTrue's Provider() knows beyond those /settings lists; any other is unknown. */
const OTHER_KNOWN_PROVIDERS = ['x', 'vercel_marketplace', 'zoom'];
const KNOWN_PROVIDERS = new Set<string>([...OAUTH_PROVIDERS, ...OTHER_KNOWN_PROVIDERS]);

export function disabledFeatureRoutes(router: Router, context: AuthContext): void {
  if (!context.settings.saml.enabled) {
    // GoTrue mounts requireSAMLEnabled on /sso and on the admin API's /sso alike.
    for (const tree of ['/sso/*', '/admin/sso/*']) {
      router.on('*', tree, async ({ request }) => {
        if (tree.startsWith('/admin')) await requireAdmin(context, request);
        throw notFound('saml_provider_disabled', 'SAML 2.0 is disabled');
      });
    }
  }

  router.on('*', '/user/identities/*', async ({ request }) => {
    await requireAuthentication(context, request);
    throw notFound('manual_linking_disabled', 'Manual linking is disabled');
  });

  router.on('GET', '/authorize', async ({ url }) => {
    const provider = (url.searchParams.get('provider') ?? '').toLowerCase();
    const reason = KNOWN_PROVIDERS.has(provider)
      ? 'provider is not enabled'
      : `Provider ${provider} could not be found`;
    throw badRequest('validation_failed', `Unsupported provider: ${reason}`);
  });
}
