import { SANDBOX_STRIPE_SECRET_KEY, SANDBOX_STRIPE_WEBHOOK_SECRET } from './index.ts';

/**
 * The Stripe settings that point the billing adapter at this stack's sandbox: written to
 * .local/stack.env and given to the functions (local-env.ts). Production sets the real
 * STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET and leaves STRIPE_API_BASE unset.
 */
export function stripeSandboxEnv(gatewayUrl: string) {
  return {
    STRIPE_SECRET_KEY: SANDBOX_STRIPE_SECRET_KEY,
    STRIPE_WEBHOOK_SECRET: SANDBOX_STRIPE_WEBHOOK_SECRET,
    STRIPE_API_BASE: `${gatewayUrl}/sandbox/stripe`,
  };
}
