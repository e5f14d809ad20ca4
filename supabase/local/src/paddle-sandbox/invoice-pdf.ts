import { renderPdf } from '../stripe-sandbox/pdf.ts';
import type { Transaction } from './world.ts';

/** A billed transaction's invoice as Paddle renders one: number, dates, lines and totals. */
export function transactionInvoicePdf(transaction: Transaction, email: string | null) {
  // The currency's code rather than its sign: the PDF's standard fonts lack most signs.
  const amount = (value: string) =>
    new Intl.NumberFormat('en-US', {
      style: 'currency',
      currency: transaction.currency_code,
      currencyDisplay: 'code',
    })
      .format(Number(value) / 100)
      .replace(/\s/g, ' ');
  const totals = transaction.details.totals;
  const period = transaction.billing_period;
  return renderPdf(`Invoice ${transaction.invoice_number}`, [
    { text: 'Shortlane (sold by Paddle.com, merchant of record)', size: 16, bold: true },
    { text: `Invoice ${transaction.invoice_number}`, size: 14, bold: true, gap: 12 },
    { text: `Date of issue: ${(transaction.billed_at ?? transaction.created_at).slice(0, 10)}` },
    { text: `Status: ${transaction.status}` },
    { text: `Bill to: ${email ?? ''}`.trim(), gap: 6 },
    ...(period
      ? [
          {
            text: `Billing period: ${period.starts_at.slice(0, 10)} - ${period.ends_at.slice(0, 10)}`,
            gap: 12,
          },
        ]
      : []),
    ...transaction.details.line_items.map((line) => ({
      text: `${line.quantity} x ${line.product.name}: ${amount(line.totals.total)}`,
    })),
    { text: `Subtotal: ${amount(totals.subtotal)}`, gap: 8 },
    { text: `Discount: ${amount(totals.discount)}` },
    { text: `Credit: ${amount(totals.credit)}` },
    { text: `Total: ${amount(totals.grand_total)}`, bold: true },
    { text: 'Paddle sandbox - test mode', size: 8, gap: 24 },
  ]);
}
