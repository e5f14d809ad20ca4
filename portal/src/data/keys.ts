/**
 * Query keys, one factory per domain (Supabase Studio's pattern). Everything that belongs to a
 * signed-in user starts with `userScope(userId)`: a sign-in, a team switch or an action that
 * changes "the state" refreshes all of it at once (`refreshAppState`), and one user's cache can
 * never answer for the next. Public catalogues (plans, operation costs, coupons) have their own
 * roots.
 */
export const userScope = (userId: string) => ['user', userId] as const;

export const profileKeys = {
  detail: (userId: string) => [...userScope(userId), 'profile'] as const,
};

export const accountKeys = {
  detail: (userId: string, accountId: string) =>
    [...userScope(userId), 'account', accountId] as const,
};

export const subscriptionKeys = {
  list: (userId: string, accountId: string) =>
    [...userScope(userId), 'subscriptions', accountId] as const,
};

export const teamKeys = {
  all: (userId: string) => [...userScope(userId), 'teams'] as const,
  mine: (userId: string) => [...teamKeys.all(userId), 'mine'] as const,
  bySlug: (userId: string, org: string, team: string) =>
    [...teamKeys.all(userId), 'by-slug', org, team] as const,
  /** The team pages (data/teams): one team's profile, permissions, members and invitations. */
  detail: (userId: string, org: string, team: string) =>
    [...teamKeys.all(userId), 'detail', org, team] as const,
  members: (userId: string, teamId: string) =>
    [...teamKeys.all(userId), 'members', teamId] as const,
  invitations: (userId: string, teamId: string) =>
    [...teamKeys.all(userId), 'invitations', teamId] as const,
  features: (userId: string, accountId: string) =>
    [...teamKeys.all(userId), 'features', accountId] as const,
};

export const organizationKeys = {
  mine: (userId: string) => [...userScope(userId), 'organizations', 'mine'] as const,
};

/** Notifications and announcements: the bell's polled feed and the notifications page. */
export const notificationKeys = {
  all: (userId: string) => [...userScope(userId), 'notifications'] as const,
  recent: (userId: string) => [...notificationKeys.all(userId), 'recent'] as const,
  pages: (userId: string) => [...notificationKeys.all(userId), 'pages'] as const,
};

export const invitationKeys = {
  pending: (userId: string) => [...userScope(userId), 'invitations', 'pending'] as const,
};

export const cartKeys = {
  all: (userId: string) => [...userScope(userId), 'cart'] as const,
  quantity: (userId: string) => [...userScope(userId), 'cart', 'quantity'] as const,
  contents: (userId: string) => [...userScope(userId), 'cart', 'contents'] as const,
  search: (userId: string, name: string) => [...userScope(userId), 'cart', 'search', name] as const,
  order: (userId: string, sessionId: string) =>
    [...userScope(userId), 'cart', 'order', sessionId] as const,
};

export const sessionKeys = {
  claims: (userId: string) => [...userScope(userId), 'session', 'claims'] as const,
};

export const surveyKeys = {
  onboarding: (userId: string) => [...userScope(userId), 'survey', 'onboarding'] as const,
  questions: (userId: string, surveyId: string) =>
    [...userScope(userId), 'survey', surveyId, 'questions'] as const,
};

export const onboardingKeys = {
  progress: (userId: string) => [...userScope(userId), 'onboarding', 'progress'] as const,
};

/** Domains differ by viewer: a guest sees the common ones, a user also their own. */
export const domainKeys = {
  list: (userId: string | null) =>
    userId == null ? (['domains', 'guest'] as const) : ([...userScope(userId), 'domains'] as const),
};

export const planKeys = {
  list: () => ['plans', 'list'] as const,
};

export const operationCostKeys = {
  list: () => ['operation-costs'] as const,
};

export const couponKeys = {
  detail: (code: string) => ['coupons', code] as const,
};

/**
 * Click analytics (features/analytics). Creating, editing, archiving or deleting a link
 * invalidates `analyticsKeys.all(userId)`; shared (public) analytics belong to no user.
 */
export const analyticsKeys = {
  all: (userId: string) => [...userScope(userId), 'analytics'] as const,
  link: (userId: string, aliasId: string, period: string) =>
    [...analyticsKeys.all(userId), 'link', aliasId, period] as const,
  linkAccess: (userId: string, aliasId: string) =>
    [...analyticsKeys.all(userId), 'link-access', aliasId] as const,
  accountAccess: (userId: string, accountId: string) =>
    [...analyticsKeys.all(userId), 'account-access', accountId] as const,
  account: (userId: string, accountId: string, period: string) =>
    [...analyticsKeys.all(userId), 'account', accountId, period] as const,
  shared: (token: string, period: string) => ['analytics', 'shared', token, period] as const,
};

/** The limits data of one account (public.account_limits): the create popover and credits. */
export const accountLimitKeys = {
  all: (userId: string) => [...userScope(userId), 'account-limits'] as const,
  detail: (userId: string, accountId: string) =>
    [...accountLimitKeys.all(userId), accountId] as const,
};

/** The usage pages (public.account_usage): one account's period and usage per count option. */
export const accountUsageKeys = {
  detail: (userId: string, accountId: string) =>
    [...userScope(userId), 'account-usage', accountId] as const,
};

/** Link lists; every link mutation invalidates `all` (and the analytics keys). */
export const linkKeys = {
  all: (userId: string) => [...userScope(userId), 'links'] as const,
  routes: (userId: string, aliasId: string) =>
    [...linkKeys.all(userId), 'routes', aliasId] as const,
  routeBuilder: (userId: string) => [...linkKeys.all(userId), 'route-builder'] as const,
  list: (userId: string, params: unknown) => [...linkKeys.all(userId), 'list', params] as const,
};

export const bulkJobKeys = {
  all: (userId: string) => [...userScope(userId), 'bulk-jobs'] as const,
  detail: (userId: string, jobId: string) => [...bulkJobKeys.all(userId), jobId] as const,
  refusedRows: (userId: string, jobId: string, page: number) =>
    [...bulkJobKeys.detail(userId, jobId), 'refused-rows', page] as const,
};
