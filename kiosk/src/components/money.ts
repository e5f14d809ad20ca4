/** An amount in minor units as the currency writes it (1599, "USD" → "$15.99"). */
export function formatMoney(minorUnits: number | string, currency: string): string {
  const amount = Number(minorUnits);
  if (!Number.isFinite(amount)) return '';
  return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(amount / 100);
}
