import { scopeFromKey, subscriptionPaths } from '../../data/subscription/scope.ts';
import { paths } from '../../routes/paths.ts';

/** A portal page a payment-method update may return to (the server checks it the same way). */
const RETURN_PATH = /^\/app\/[A-Za-z0-9/_-]{1,200}$/;

/**
 * Where the page goes when the overlay completes and when it closes, by the payment flow kind
 * (app-shell 3): a purchase completes on its scope's success page (`scope`) and closes back to
 * the plans; an invoice payment (a past-due renewal) goes home either way; a payment-method
 * update goes back to the page it came from (`return`); a domain purchase completes on
 * shopping-cart.verify and closes back to the cart.
 */
export function paddleFlowTargets(params: URLSearchParams, transactionId: string) {
  const flow = params.get('flow');
  if (flow === 'invoice-payment') return { completed: paths.homepage, closed: paths.homepage };
  if (flow === 'payment-method-update') {
    const back = params.get('return') ?? '';
    const target = RETURN_PATH.test(back) ? back : paths['settings.paymentMethod'];
    // The page waits for the new card's webhook when it comes back with the transaction.
    return {
      completed: `${target}?${new URLSearchParams({ session_id: transactionId }).toString()}`,
      closed: target,
    };
  }
  if (flow === 'domain-purchase')
    // The success address's query (`session_id={CHECKOUT_SESSION_ID}`) with the transaction.
    return {
      completed: `${paths['shopping-cart.verify']}?${new URLSearchParams({
        session_id: transactionId,
      }).toString()}`,
      closed: paths['shopping-cart'],
    };
  const scope = scopeFromKey(params.get('scope'));
  return {
    completed: `${subscriptionPaths(scope).subscription}/success?${new URLSearchParams({
      session_id: transactionId,
    }).toString()}`,
    closed: paths['signup.pricing'],
  };
}
