/**
 * A Paddle.js v2 stand-in, served at /sandbox/paddle/paddle.js. `@paddle/paddle-js` resolves
 * `initializePaddle()` with `window.PaddleBillingV1` when it is already there and only then
 * injects Paddle's CDN script, so the portal loads this file first (VITE_PADDLE_SCRIPT_URL) and the
 * same portal code runs against the sandbox and against Paddle.
 *
 * What it implements, as Paddle.js does: Environment.set, Initialize (once; opens the checkout
 * named by `?_ptxn=` in the page address, as a default payment link does), Update,
 * Checkout.open({ transactionId, settings, customer }) as an overlay iframe, Checkout.close,
 * and the events sent to `eventCallback` (checkout.loaded, checkout.payment.failed,
 * checkout.completed, checkout.closed, checkout.error). With `settings.successUrl` the page goes
 * there once the checkout completes.
 */
export const PADDLE_JS = String.raw`(function () {
  'use strict';
  if (window.PaddleBillingV1) return;
  var current = document.currentScript;
  var base = current && current.src ? current.src.replace(/\/paddle\.js(?:\?.*)?$/, '') : '';
  var frameOrigin = new URL(base || '/', location.href).origin;
  var state = { environment: 'production', options: {}, overlay: null, frame: null, settings: {}, data: null };

  function emit(event) {
    var callback = state.options.eventCallback;
    if (typeof callback !== 'function') return;
    try { callback(event); } catch (error) { console.error('[Paddle] eventCallback failed', error); }
  }

  function close(announce) {
    if (!state.overlay) return;
    state.overlay.remove();
    state.overlay = null;
    state.frame = null;
    if (announce) emit({ name: 'checkout.closed', data: state.data });
  }

  window.addEventListener('message', function (message) {
    if (message.origin !== frameOrigin || !state.frame || message.source !== state.frame.contentWindow) return;
    var payload = message.data;
    if (!payload || payload.source !== 'paddle-sandbox') return;
    if (payload.data) state.data = payload.data;
    if (payload.error) {
      emit({ type: payload.error.type, name: payload.name, code: payload.error.code,
        detail: payload.error.detail, documentation_url: payload.error.documentation_url });
      return;
    }
    emit({ name: payload.name, data: payload.data });
    if (payload.name === 'checkout.completed' && state.settings.successUrl) {
      location.href = state.settings.successUrl;
    }
  });

  function open(input) {
    input = input || {};
    if (!Paddle.Initialized) {
      throw new Error('[Paddle] Paddle.Initialize() must be called before Paddle.Checkout.open()');
    }
    var defaults = (state.options.checkout && state.options.checkout.settings) || {};
    var settings = Object.assign({}, defaults, input.settings || {});
    if (!input.transactionId) {
      emit({ type: 'checkout.error', name: 'checkout.error', code: 'unsupported',
        detail: 'The local sandbox opens checkouts for a transaction id.',
        documentation_url: 'https://developer.paddle.com/paddle-js/methods/paddle-checkout-open' });
      return;
    }
    close(false);
    state.settings = settings;
    state.data = null;
    var params = new URLSearchParams({
      _ptxn: input.transactionId,
      token: state.options.token || '',
      parent_origin: location.origin,
      locale: settings.locale || 'en',
      environment: state.environment,
    });
    if (input.customer && input.customer.email) params.set('email', input.customer.email);
    var overlay = document.createElement('div');
    overlay.className = 'paddle-frame paddle-frame-overlay';
    overlay.setAttribute('style', 'position:fixed;inset:0;z-index:2147483647;display:flex;' +
      'align-items:center;justify-content:center;background:rgba(17,24,39,.6)');
    var frame = document.createElement('iframe');
    frame.name = 'paddle_frame';
    frame.title = 'Paddle Checkout';
    frame.setAttribute('allow', 'payment');
    frame.setAttribute('style', 'width:min(480px,100vw);height:min(760px,100vh);border:0;' +
      'border-radius:8px;background:#fff');
    frame.src = base + '/checkout/frame?' + params.toString();
    var closer = document.createElement('button');
    closer.type = 'button';
    closer.textContent = '\u00d7';
    closer.setAttribute('aria-label', 'Close checkout');
    closer.setAttribute('style', 'position:absolute;top:12px;right:16px;font-size:28px;' +
      'background:none;border:0;color:#fff;cursor:pointer');
    closer.addEventListener('click', function () { close(true); });
    overlay.appendChild(frame);
    overlay.appendChild(closer);
    document.body.appendChild(overlay);
    state.overlay = overlay;
    state.frame = frame;
  }

  function unavailable(name) {
    return function () {
      return Promise.reject(new Error('[Paddle] ' + name + ' is not available in the local sandbox'));
    };
  }

  var Paddle = {
    Version: 'v1',
    Initialized: false,
    Status: { libraryVersion: 'sandbox' },
    Environment: { set: function (environment) { state.environment = environment; } },
    Initialize: function (options) {
      if (Paddle.Initialized) {
        throw new Error('[Paddle] Paddle.Initialize() can only be called once; use Paddle.Update()');
      }
      if (!options || (!options.token && !options.seller)) {
        throw new Error('[Paddle] Paddle.Initialize() needs a client-side token');
      }
      state.options = Object.assign({}, options);
      Paddle.Initialized = true;
      var transactionId = new URLSearchParams(location.search).get('_ptxn');
      if (transactionId) open({ transactionId: transactionId });
    },
    Setup: function (options) { Paddle.Initialize(options); },
    Update: function (options) { Object.assign(state.options, options || {}); },
    Checkout: {
      open: open,
      close: function () { close(true); },
      updateCheckout: function () {},
      updateItems: function () {},
    },
    Spinner: { show: function () {}, hide: function () {} },
    PricePreview: unavailable('PricePreview'),
    TransactionPreview: unavailable('TransactionPreview'),
    Retain: { demo: function () {}, initCancellationFlow: unavailable('Retain') },
  };
  window.Paddle = Paddle;
  window.PaddleBillingV1 = Paddle;
})();
`;
