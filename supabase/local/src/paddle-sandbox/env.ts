import {
  SANDBOX_PADDLE_API_KEY,
  SANDBOX_PADDLE_CLIENT_TOKEN,
  SANDBOX_PADDLE_WEBHOOK_SECRET,
} from './index.ts';

/**
 * The Paddle settings that point billing type 2 at this stack's sandbox: written to
 * .local/stack.env and given to the functions (local-env.ts). Production sets the real
 * PADDLE_API_KEY and PADDLE_WEBHOOK_SECRET and leaves PADDLE_API_BASE unset (PADDLE_ENVIRONMENT
 * sandbox or production picks Paddle's own hosts). The portal gets the client-side token and
 * the Paddle.js stand-in's address (VITE_PADDLE_CLIENT_TOKEN, VITE_PADDLE_SCRIPT_URL).
 */
export function paddleSandboxEnv(gatewayUrl: string) {
  return {
    PADDLE_API_KEY: SANDBOX_PADDLE_API_KEY,
    PADDLE_WEBHOOK_SECRET: SANDBOX_PADDLE_WEBHOOK_SECRET,
    PADDLE_API_BASE: `${gatewayUrl}/sandbox/paddle`,
    PADDLE_CLIENT_TOKEN: SANDBOX_PADDLE_CLIENT_TOKEN,
    PADDLE_SCRIPT_URL: `${gatewayUrl}/sandbox/paddle/paddle.js`,
  };
}
