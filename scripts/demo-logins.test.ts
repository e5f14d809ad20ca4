import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../supabase/local/src/config.ts';
import { DEMO_LOGINS, DEMO_PASSWORD } from './demo-logins.ts';

describe('demo logins printed by npm start', () => {
  const seed = fs.readFileSync(path.join(REPO_ROOT, 'supabase/seeds/10_accounts.sql'), 'utf8');

  it('name exactly the users the seed lists, with its password', () => {
    const seeded = [...seed.matchAll(/^--\s+[0-9a-f-]{36}\s+(\S+@shortlane\.test)/gm)].map(
      (m) => m[1],
    );
    expect(DEMO_LOGINS.map((login) => login.email).sort()).toEqual([...seeded].sort());
    expect(seed).toContain(`password is: ${DEMO_PASSWORD}`);
  });
});
