import { initializePaddle, type Paddle, type PaddleEventData } from '@paddle/paddle-js';
import type { PaddleConfig } from './config.ts';

/**
 * Paddle.js for billing type 2, through `@paddle/paddle-js`. That wrapper has no option for the
 * script's address: it resolves with `window.PaddleBillingV1` when a script already set it, else
 * injects Paddle's CDN script. So with `scriptUrl` (the local sandbox's stand-in, or any other)
 * the portal loads that script first; the rest is the same code against sandbox and Paddle.
 */

function loadScript(src: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = src;
    script.async = true;
    script.addEventListener('load', () => resolve());
    script.addEventListener('error', () =>
      reject(new Error(`Paddle.js could not be loaded from ${src}`)),
    );
    document.head.appendChild(script);
  });
}

let scriptLoad: Promise<void> | undefined;
/** The transaction whose checkout is open on this page, if any. */
let openTransaction: string | null = null;

/**
 * Paddle.js, initialized with the client-side token and `eventCallback`. Paddle.js opens the
 * checkout of a `?_ptxn=` page address itself (a transaction's payment link) when initialized;
 * a second call updates the callback instead (Paddle.Initialize runs once per page).
 */
export async function loadPaddle(
  config: PaddleConfig,
  options: {
    locale: string;
    /** The page's `_ptxn`: the transaction whose checkout to show. */
    transactionId: string;
    eventCallback: (event: PaddleEventData) => void;
  },
): Promise<Paddle> {
  const ptxn = options.transactionId;
  const eventCallback = (event: PaddleEventData) => {
    if (event.name === 'checkout.closed' || event.name === 'checkout.completed')
      openTransaction = null;
    options.eventCallback(event);
  };
  if (config.scriptUrl && !window.PaddleBillingV1) {
    scriptLoad ??= loadScript(config.scriptUrl).catch((error: unknown) => {
      scriptLoad = undefined;
      throw error;
    });
    await scriptLoad;
  }
  const firstTime = !window.PaddleBillingV1?.Initialized;
  const paddle = await initializePaddle({
    environment: config.environment,
    token: config.token,
    eventCallback,
    checkout: { settings: { displayMode: 'overlay', locale: options.locale } },
  });
  if (!paddle) throw new Error('Paddle.js is not available');
  if (firstTime) openTransaction = ptxn;
  else if (openTransaction !== ptxn) {
    // Paddle.js opens `_ptxn` on its first initialization only: a later visit opens it here.
    paddle.Checkout.open({ transactionId: ptxn });
    openTransaction = ptxn;
  }
  return paddle;
}
