import { organizationKeys } from '../keys.ts';

/** An organization's single sign-on setting and domains (organization/{org}/settings/profile/sso). */
export const ssoKeys = {
  setting: (userId: string, organizationId: string) =>
    [...organizationKeys.mine(userId), organizationId, 'sso'] as const,
};
