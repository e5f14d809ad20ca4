import { userScope } from '../keys.ts';

/** Billing documents of one account: its card on file, invoices and orders. */
export const billingDocumentKeys = {
  all: (userId: string, accountId: string) =>
    [...userScope(userId), 'billing-documents', accountId] as const,
  customer: (userId: string, accountId: string) =>
    [...billingDocumentKeys.all(userId, accountId), 'customer'] as const,
  invoices: (userId: string, accountId: string) =>
    [...billingDocumentKeys.all(userId, accountId), 'invoices'] as const,
  orders: (userId: string, accountId: string) =>
    [...billingDocumentKeys.all(userId, accountId), 'orders'] as const,
  organizationAccount: (userId: string, org: string) =>
    [...userScope(userId), 'billing-documents', 'organization-account', org] as const,
  order: (userId: string, orderId: string) =>
    [...userScope(userId), 'billing-documents', 'order', orderId] as const,
};
