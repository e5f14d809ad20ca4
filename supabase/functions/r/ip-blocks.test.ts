import assert from 'node:assert/strict';
import { closeSql, sql } from '../_shared/sql.ts';
import { useStackAsRuntimeEnv } from '../_shared/testing.ts';
import { IpBlockList, loadIpBlocks } from './ip-blocks.ts';

useStackAsRuntimeEnv();

const forwardedFor = (chain: string) => new Headers({ 'x-forwarded-for': chain });

Deno.test('single addresses and ranges, anywhere in the forwarded chain', async () => {
  const list = new IpBlockList(() =>
    Promise.resolve(['203.0.113.7/32', '198.51.100.0/24', '2001:db8::/32']),
  );
  await list.refresh();
  assert.equal(list.size, 3);
  assert.equal(list.isBlocked(forwardedFor('203.0.113.7')), true);
  assert.equal(list.isBlocked(forwardedFor('203.0.113.8')), false);
  assert.equal(list.isBlocked(forwardedFor('198.51.100.200')), true);
  assert.equal(list.isBlocked(forwardedFor('2001:db8:1::5')), true);
  // The IPv4-mapped spelling a dual-stack proxy reports is the same client.
  assert.equal(list.isBlocked(forwardedFor('::ffff:203.0.113.7')), true);
  // A client cannot hide behind an entry of its own: the proxy's entry is checked too.
  assert.equal(list.isBlocked(forwardedFor('8.8.8.8, 203.0.113.7')), true);
  assert.equal(list.isBlocked(new Headers({ 'x-real-ip': '198.51.100.1' })), true);
  assert.equal(list.isBlocked(forwardedFor('garbage, 8.8.8.8')), false);
});

Deno.test('a failed reload keeps the last list', async () => {
  let fail = false;
  const list = new IpBlockList(() =>
    fail ? Promise.reject(new Error('database down')) : Promise.resolve(['192.0.2.1/32']),
  );
  await list.refresh();
  fail = true;
  const logged = console.error;
  console.error = () => {};
  try {
    await list.refresh();
  } finally {
    console.error = logged;
  }
  assert.equal(list.isBlocked(forwardedFor('192.0.2.1')), true);
});

Deno.test('loads the blocks in force from public.ip_blocks', async () => {
  const db = sql();
  const [kept, expired, range] = ['192.0.2.77/32', '192.0.2.78/32', '198.18.0.0/15'] as const;
  const ranges = [kept, expired, range];
  try {
    await db`insert into public.ip_blocks (range, expires_at) values
      (${kept}, null), (${expired}, now() - interval '1 minute'),
      (${range}, now() + interval '1 hour')`;
    const loaded = await loadIpBlocks(db)();
    assert.ok(loaded.includes('192.0.2.77/32'));
    assert.ok(loaded.includes('198.18.0.0/15'));
    assert.ok(!loaded.includes('192.0.2.78/32'), 'expired blocks are not loaded');
  } finally {
    await db`delete from public.ip_blocks where range::text = any (${ranges}::text[])`;
    await closeSql();
  }
});
