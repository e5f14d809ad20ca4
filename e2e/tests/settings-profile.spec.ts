import { deflateSync } from 'node:zlib';
import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures.ts';
import { logIn } from '../support/shell.ts';

/** The spec gives no message for a photo of the wrong type; this is the portal's (shared). */
const PHOTO_TYPE_ERROR = 'The photo must be a file of type: png, jpg.';

/** A real 8×8 png, made here so the spec carries no binary fixture. */
function tinyPng(): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const byte of bytes) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([length, body, sum]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(8, 0);
  header.writeUInt32BE(8, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const rows = Buffer.concat(
    Array.from({ length: 8 }, () => Buffer.from([0, ...Array(8).fill([79, 70, 229]).flat()])),
  );
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

async function openProfile(page: Page, email: string, password: string) {
  await page.goto('/app/login');
  await logIn(page, email, password);
  await expect(page).toHaveURL('/app');
  await page.goto('/app/settings/profile');
  await expect(page.getByRole('heading', { level: 1, name: 'Profile' })).toBeVisible();
}

const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Main' });

test.describe('settings: profile', () => {
  test('changes the name, which the navigation bar then shows', async ({ page, factories }) => {
    const user = await factories.createConfirmedUser({ userMetadata: { name: 'Ada Lovelace' } });
    await openProfile(page, user.email, user.password);
    await expect(
      page.getByRole('navigation', { name: 'Account settings' }).getByRole('link'),
    ).toHaveText(['Profile', 'Security', 'Account Usage']);

    const name = page.getByRole('textbox', { name: 'Name' });
    await expect(name).toHaveValue('Ada Lovelace');
    await name.fill('');
    await page.getByRole('button', { name: 'Save name' }).click();
    await expect(page.getByText('The name field is required.')).toBeVisible();

    await name.fill('Grace Hopper');
    await page.getByRole('button', { name: 'Save name' }).click();
    await expect(page.getByText('Your name was saved.')).toBeVisible();
    await expect(mainNav(page).getByRole('link', { name: 'Grace Hopper' })).toBeVisible();
    await page.reload();
    await expect(page.getByRole('textbox', { name: 'Name' })).toHaveValue('Grace Hopper');
  });

  test('uploads a png photo, shown on the page and in the navigation bar; refuses a jpg-named text file; removes it', async ({
    page,
    factories,
  }) => {
    const user = await factories.createConfirmedUser();
    await openProfile(page, user.email, user.password);

    const fileInput = page.locator('input[type="file"]');
    await fileInput.setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: tinyPng() });
    await expect(page.getByText('Your photo was saved.')).toBeVisible();
    const photo = page.getByRole('img', { name: 'Your profile photo' });
    await expect(photo).toBeVisible();
    const src = await photo.getAttribute('src');
    expect(src).toMatch(
      new RegExp(`/storage/v1/object/public/avatars/${user.id}/[0-9a-f-]{36}\\.png$`),
    );
    // The photo really loaded (a broken image has no natural width).
    await expect.poll(() => photo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(8);
    await expect(mainNav(page).locator(`img[src="${src}"]`)).toBeVisible();

    await fileInput.setInputFiles({
      name: 'holiday.jpg',
      mimeType: 'image/jpeg',
      buffer: Buffer.from('This is a text file, not a photo.\n'),
    });
    await expect(page.getByRole('alert').filter({ hasText: PHOTO_TYPE_ERROR })).toBeVisible();
    await expect(photo).toHaveAttribute('src', src!);

    await page.getByRole('button', { name: 'Remove photo' }).click();
    await expect(page.getByText('Your photo was removed.')).toBeVisible();
    await expect(page.getByRole('img', { name: 'Your profile photo' })).toHaveCount(0);
    await expect(mainNav(page).locator('img')).toHaveCount(0);
    expect((await fetch(src!)).ok).toBe(false);
  });

  test('an e-mail change mails both addresses, waits, and takes effect once both links are followed', async ({
    page,
    factories,
    mailbox,
  }) => {
    const user = await factories.createConfirmedUser();
    await openProfile(page, user.email, user.password);
    const newEmail = user.email.replace('@', '-new@');

    await page.getByRole('textbox', { name: 'New e-mail address' }).fill(newEmail);
    await page.getByRole('button', { name: 'Change e-mail address' }).click();
    await expect(page.getByText(/We sent a confirmation link/)).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: newEmail })).toBeVisible();

    const verifyLink = async (address: string) => {
      const mail = await mailbox.waitFor(address, { subject: 'Confirm your new email address' });
      expect(mail.text).toContain(newEmail);
      const link = mail.links.find((candidate) => candidate.includes('/auth/v1/verify'));
      expect(link, `a verify link to ${address}`).toBeDefined();
      return link!;
    };
    const toCurrent = await verifyLink(user.email);
    const toNew = await verifyLink(newEmail);

    // Still the old address, waiting, until both links are followed.
    await page.reload();
    await expect(page.getByText(`Current address: ${user.email}`)).toBeVisible();
    await page.goto(toCurrent);
    await expect(page).toHaveURL(/\/app\/settings\/profile$/);
    await expect(page.getByText(/Confirmation link accepted/)).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: newEmail })).toBeVisible();

    await page.goto(toNew);
    await expect(page.getByText(`Current address: ${newEmail}`)).toBeVisible();
    await expect(page.getByText('Waiting for confirmation')).toHaveCount(0);
  });
});

test.describe('settings: delete account', () => {
  test('with the password the account goes, the user lands on the deleted page and cannot log in', async ({
    page,
    factories,
  }) => {
    const user = await factories.createConfirmedUser();
    await openProfile(page, user.email, user.password);
    await page.getByRole('link', { name: 'Delete my account' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Delete account' })).toBeVisible();

    await page.getByLabel('Password', { exact: true }).fill('not-my-password');
    await page.getByRole('button', { name: 'Delete my account' }).click();
    await expect(page.locator('.mantine-InputWrapper-error')).toHaveText(
      'The password is incorrect.',
    );
    await expect(page).toHaveURL('/app/settings/profile/delete');

    await page.getByLabel('Password', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Delete my account' }).click();
    await expect(page).toHaveURL('/app/deleted');
    await expect(page.getByRole('link', { name: 'Sign In' })).toBeVisible();

    await page.goto('/app/login');
    await logIn(page, user.email, user.password);
    await expect(page.getByRole('alert')).toBeVisible();
    await expect(page).toHaveURL('/app/login');
  });
});
