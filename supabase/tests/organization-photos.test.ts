import { randomUUID } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonClient, closeDatabase, database, signedInClient } from '../local/test/auth-helpers.ts';
import {
  addOrganizationUser,
  createOrganization,
  createOrganizationRole,
  type TestOrganization,
} from './support/index.ts';

/**
 * Organization photos in the public `avatars` bucket, through the real Storage API: holders of
 * the organization's `profile` permission write its folder `organizations/<id>/`; others do
 * not; anyone reads a photo by its public address; the organization may only point at its own.
 */

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const avatars = (client: SupabaseClient) => client.storage.from('avatars');
const photoName = (organizationId: string) => `organizations/${organizationId}/${randomUUID()}.png`;
const upload = (client: SupabaseClient, path: string) =>
  avatars(client).upload(path, PNG, { contentType: 'image/png' });
const RLS_REFUSAL = { message: 'new row violates row-level security policy' };

let owner: Awaited<ReturnType<typeof signedInClient>>;
let profileHolder: Awaited<ReturnType<typeof signedInClient>>;
let auditor: Awaited<ReturnType<typeof signedInClient>>;
let stranger: Awaited<ReturnType<typeof signedInClient>>;
let organization: TestOrganization;
let other: TestOrganization;

beforeAll(async () => {
  [owner, profileHolder, auditor, stranger] = await Promise.all([
    signedInClient('org-photo-owner'),
    signedInClient('org-photo-profile'),
    signedInClient('org-photo-audit'),
    signedInClient('org-photo-stranger'),
  ]);
  const db = await database().connect();
  try {
    organization = await createOrganization(db, { ownerId: owner.user.id });
    other = await createOrganization(db, { ownerId: stranger.user.id });
    for (const [member, permissions] of [
      [profileHolder, ['profile']],
      [auditor, ['audit']],
    ] as const) {
      const role = await createOrganizationRole(db, {
        organizationId: organization.id,
        permissions: [...permissions],
      });
      await addOrganizationUser(db, {
        organizationId: organization.id,
        userId: member.user.id,
        roleId: role.id,
      });
    }
  } finally {
    db.release();
  }
});

afterAll(closeDatabase);

describe('organization photos', () => {
  it('the owner uploads one, lists it, points the organization at it; anyone fetches it', async () => {
    const path = photoName(organization.id);
    expect((await upload(owner.client, path)).error).toBeNull();
    const { data: listed } = await avatars(owner.client).list(`organizations/${organization.id}`);
    expect(listed?.map((object) => object.name)).toEqual([path.split('/')[2]]);

    const url = avatars(anonClient()).getPublicUrl(path).data.publicUrl;
    expect((await fetch(url)).status).toBe(200);
    const saved = await owner.client
      .from('organizations')
      .update({ photo_url: url })
      .eq('id', organization.id)
      .select('photo_url')
      .single();
    expect(saved.error).toBeNull();
    expect(saved.data).toEqual({ photo_url: url });
  });

  it('a holder of profile writes the folder; an auditor and a stranger do not', async () => {
    const path = photoName(organization.id);
    expect((await upload(profileHolder.client, path)).error).toBeNull();
    expect((await avatars(profileHolder.client).remove([path])).data).toHaveLength(1);

    for (const refused of [auditor, stranger]) {
      expect((await upload(refused.client, photoName(organization.id))).error).toMatchObject(
        RLS_REFUSAL,
      );
      const { data } = await avatars(refused.client).list(`organizations/${organization.id}`);
      expect(data).toEqual([]);
    }
    // Someone else's organization is not the owner's to write.
    expect((await upload(owner.client, photoName(other.id))).error).toMatchObject(RLS_REFUSAL);
  });

  it('takes only photo names as the portal makes them', async () => {
    for (const path of [
      `organizations/${organization.id}/photo.png`,
      `organizations/${organization.id}/${randomUUID()}.svg`,
      `organizations/${organization.id}/nested/${randomUUID()}.png`,
      `organizations/${randomUUID()}.png`,
    ]) {
      expect((await upload(owner.client, path)).error, path).toMatchObject(RLS_REFUSAL);
    }
  });

  it("the organization's photo address may only name one of its own photos", async () => {
    const elsewhere = [
      'https://tracker.example/pixel.png',
      avatars(anonClient()).getPublicUrl(photoName(other.id)).data.publicUrl,
      avatars(anonClient()).getPublicUrl(`${owner.user.id}/${randomUUID()}.png`).data.publicUrl,
    ];
    for (const url of elsewhere) {
      const { error } = await owner.client
        .from('organizations')
        .update({ photo_url: url })
        .eq('id', organization.id)
        .select('id')
        .single();
      expect(error, url).toMatchObject({ code: '23514' });
    }
  });
});
