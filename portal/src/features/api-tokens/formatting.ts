/** Dates in the user's local time, converted from UTC (app-shell 1). */
export const formatDateTime = (iso: string): string => new Date(iso).toLocaleString();

/** "5,000 of 10,000 left", or unlimited when the plan sets no limit. */
export function creditsLeft(credits: { used: number; limit: number | null }): string {
  if (credits.limit === null) return 'Unlimited';
  const left = Math.max(0, credits.limit - credits.used);
  return `${left.toLocaleString('en-US')} of ${credits.limit.toLocaleString('en-US')} left`;
}
