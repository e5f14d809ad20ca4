import assert from 'node:assert/strict';
import { RedirectAllowance } from './allowance.ts';
import { Memo } from './memo.ts';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

function recordingCheck(blocked: Set<string>) {
  const asked: string[][] = [];
  const check = (ids: string[]) => {
    asked.push([...ids]);
    return Promise.resolve(
      ids.map((id) => ({ account_id: id, redirects_blocked: blocked.has(id) })),
    );
  };
  return { asked, check };
}

Deno.test(
  'an unknown account is asked about in the background, all at once, and not blocked meanwhile',
  async () => {
    const { asked, check } = recordingCheck(new Set(['a1']));
    const allowance = new RedirectAllowance({ check });
    assert.equal(allowance.isBlocked('a1'), false, 'nothing known yet');
    assert.equal(allowance.isBlocked('a2'), false);
    assert.equal(allowance.isBlocked('a1'), false);
    await tick();
    assert.deepEqual(asked, [['a1', 'a2']], 'one question for the accounts met');
    assert.equal(allowance.isBlocked('a1'), true);
    assert.equal(allowance.isBlocked('a2'), false);
    await tick();
    assert.equal(asked.length, 1, 'fresh answers are not asked again');
  },
);

Deno.test('a written batch’s answer wins; answers are asked again after the TTL', async () => {
  let now = 0;
  const { asked, check } = recordingCheck(new Set());
  const allowance = new RedirectAllowance({ check, ttlMs: 1_000, now: () => now });
  allowance.learn([{ account_id: 'a1', redirects_blocked: true }]);
  assert.equal(allowance.isBlocked('a1'), true);
  await tick();
  assert.deepEqual(asked, []);
  now = 2_000;
  assert.equal(allowance.isBlocked('a1'), true, 'the stale answer serves until the new one comes');
  await tick();
  assert.deepEqual(asked, [['a1']]);
  assert.equal(allowance.isBlocked('a1'), false);
});

Deno.test('a recheck asked for during a check is asked once more after it', async () => {
  const blocked = new Set(['a1']);
  const asked: string[][] = [];
  let release: () => void = () => {};
  const allowance = new RedirectAllowance({
    check: async (ids) => {
      asked.push([...ids]);
      // The first answer reads the state before the change below.
      const answer = ids.map((id) => ({ account_id: id, redirects_blocked: blocked.has(id) }));
      if (asked.length === 1) await new Promise<void>((resolve) => (release = resolve));
      return answer;
    },
  });
  allowance.isBlocked('a1');
  await tick();
  blocked.delete('a1');
  allowance.recheck('a1');
  release();
  await tick();
  await tick();
  assert.deepEqual(asked, [['a1'], ['a1']]);
  assert.equal(allowance.isBlocked('a1'), false);
});

Deno.test('guests’ links are never limited', async () => {
  const { asked, check } = recordingCheck(new Set());
  const allowance = new RedirectAllowance({ check });
  assert.equal(allowance.isBlocked(null), false);
  await tick();
  assert.deepEqual(asked, []);
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
