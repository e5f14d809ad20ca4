import { describe, expect, it } from 'vitest';
import { FlashStore, takeFlashFromUrl } from './flash.ts';

describe('takeFlashFromUrl', () => {
  it('takes an auth error out of the fragment, keeping the rest of the address', () => {
    const { flash, cleanUrl } = takeFlashFromUrl(
      new URL(
        'http://portal.test/app?coupon=X#error=access_denied&error_code=otp_expired&error_description=Email+link+is+invalid+or+has+expired&other=1',
      ),
    );
    expect(flash).toEqual({ type: 'error', message: 'Email link is invalid or has expired' });
    expect(cleanUrl.href).toBe('http://portal.test/app?coupon=X#other=1');
  });

  it('takes one out of the query too', () => {
    const { flash, cleanUrl } = takeFlashFromUrl(
      new URL('http://portal.test/app?error=server_error&error_description=Boom'),
    );
    expect(flash?.message).toBe('Boom');
    expect(cleanUrl.href).toBe('http://portal.test/app');
  });

  it('leaves an address without one alone', () => {
    const url = new URL('http://portal.test/app#access_token=abc');
    expect(takeFlashFromUrl(url)).toEqual({ flash: null, cleanUrl: url });
  });
});

describe('FlashStore', () => {
  it('keeps messages until their type is cleared, telling subscribers', () => {
    const store = new FlashStore();
    let changes = 0;
    store.subscribe(() => (changes += 1));
    store.push({ type: 'error', message: 'a' });
    store.push({ type: 'success', message: 'b' });
    store.clear('error');
    expect(store.getSnapshot()).toEqual([{ type: 'success', message: 'b' }]);
    store.clear('error');
    expect(changes).toBe(3);
  });
});
