import { userScope } from '../keys.ts';

/**
 * Branded domains and vanity subdomains: the accounts the user manages domains for; of one
 * account, its domains and the plan's room; one domain; the organization's team choices.
 */
export const brandedDomainKeys = {
  all: (userId: string) => [...userScope(userId), 'branded-domains'] as const,
  accounts: (userId: string) => [...brandedDomainKeys.all(userId), 'accounts'] as const,
  list: (userId: string, accountId: string) =>
    [...brandedDomainKeys.all(userId), accountId, 'list'] as const,
  usage: (userId: string, accountId: string) =>
    [...brandedDomainKeys.all(userId), accountId, 'usage'] as const,
  detail: (userId: string, key: string) =>
    [...brandedDomainKeys.all(userId), 'detail', key] as const,
  bases: () => ['vanity-base-domains'] as const,
};
