/**
 * The {encrypted} part of /user/vatinfo/{encrypted}: the account the link is for, as base64url
 * of its id. It names the account, it grants nothing (the billing function and RLS decide who
 * may change the account's tax details), so it needs no secret.
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function vatInfoToken(accountId: string): string {
  return btoa(accountId).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

export function accountFromVatInfoToken(token: string): string | null {
  try {
    const id = atob(token.replaceAll('-', '+').replaceAll('_', '/'));
    return UUID.test(id) ? id : null;
  } catch {
    return null;
  }
}
