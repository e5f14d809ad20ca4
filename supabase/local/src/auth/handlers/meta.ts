import { json } from '../../http.ts';
import type { AuthContext } from '../context.ts';
import type { Router } from '../router.ts';

/** The GoTrue release whose behaviour this service follows. */
export const GOTRUE_VERSION = 'v2.186.0';

/** The OAuth providers /settings lists (all disabled here). */
export const OAUTH_PROVIDERS = [
  'apple',
  'azure',
  'bitbucket',
  'discord',
  'facebook',
  'snapchat',
  'figma',
  'fly',
  'github',
  'gitlab',
  'google',
  'keycloak',
  'kakao',
  'linkedin',
  'linkedin_oidc',
  'notion',
  'spotify',
  'slack',
  'slack_oidc',
  'workos',
  'twitch',
  'twitter',
] as const;

export function metaRoutes(router: Router, { settings }: AuthContext): void {
  router.on('GET', '/health', async () =>
    json({
      version: GOTRUE_VERSION,
      name: 'GoTrue',
      description: 'GoTrue is a user registration and authentication API',
    }),
  );

  router.on('GET', '/settings', async () =>
    json({
      external: {
        anonymous_users: settings.anonymousSignInsEnabled,
        ...Object.fromEntries(OAUTH_PROVIDERS.map((provider) => [provider, false])),
        email: settings.emailSignupEnabled,
        phone: false,
        zoom: false,
      },
      disable_signup: !settings.signupEnabled,
      mailer_autoconfirm: settings.mailerAutoconfirm,
      phone_autoconfirm: false,
      sms_provider: '',
      saml_enabled: settings.saml.enabled,
      saml_private_key_next_configured: false,
      passkeys_enabled: false,
    }),
  );
}
