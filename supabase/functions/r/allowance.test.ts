import assert from 'node:assert/strict';
import { RedirectAllowance } from './allowance.ts';
import { Memo } from './memo.ts';

Deno.test('a link’s own facts decide until a newer batch says otherwise', () => {
  let now = 1_000;
  const allowance = new RedirectAllowance(() => now);
  const link = { accountId: 'a1', redirectsBlocked: false, loadedAt: 1_000 };
  assert.equal(allowance.isBlocked(link), false);

  now = 2_000;
  allowance.learn([{ account_id: 'a1', redirects_blocked: true }]);
  assert.equal(allowance.isBlocked(link), true);
  // Another account is unaffected.
  assert.equal(allowance.isBlocked({ ...link, accountId: 'a2' }), false);

  // The link reloaded later (limit raised meanwhile): its fresher facts win.
  assert.equal(allowance.isBlocked({ ...link, loadedAt: 3_000 }), false);
});

Deno.test('guests’ links are never limited', () => {
  const allowance = new RedirectAllowance();
  assert.equal(
    allowance.isBlocked({ accountId: null, redirectsBlocked: true, loadedAt: 0 }),
    false,
  );
});

Deno.test('the memo computes once per value and forgets the least recently used', () => {
  const memo = new Memo<number>(2);
  let computed = 0;
  const square = (key: string) => {
    computed++;
    return Number(key) ** 2;
  };
  assert.equal(memo.get('2', square), 4);
  assert.equal(memo.get('2', square), 4);
  assert.equal(computed, 1);
  memo.get('3', square);
  memo.get('2', square); // 2 is now the most recent
  memo.get('4', square); // evicts 3
  assert.equal(memo.size, 2);
  memo.get('3', square);
  assert.equal(computed, 4);
  assert.throws(() => new Memo(0), RangeError);
});
