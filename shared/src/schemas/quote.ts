/** The Enterprise quote request (pricing/quote; public.request_quote checks the same). */
import { z } from 'zod';

/** The sentences request_quote answers in its error details, field by field. */
export const QUOTE_MESSAGES = {
  name: 'Enter your name (at most 100 characters).',
  email: 'Enter a valid e-mail address.',
  company: 'The company name may have at most 200 characters.',
  links_per_month: 'Enter how many links you make a month (1 to 1,000,000,000).',
  team_size: 'Enter how many people will use it (1 to 1,000,000).',
  message: 'The message may have at most 5,000 characters.',
} as const;

const count = (max: number, message: string) =>
  z.number({ error: message }).int({ error: message }).min(1, { error: message }).max(max, {
    error: message,
  });

export const quoteRequestSchema = z.object({
  name: z
    .string({ error: QUOTE_MESSAGES.name })
    .trim()
    .min(1, { error: QUOTE_MESSAGES.name })
    .max(100, { error: QUOTE_MESSAGES.name }),
  email: z
    .string({ error: QUOTE_MESSAGES.email })
    .trim()
    .max(254, { error: QUOTE_MESSAGES.email })
    .pipe(z.email({ error: QUOTE_MESSAGES.email })),
  company: z
    .string()
    .trim()
    .max(200, { error: QUOTE_MESSAGES.company })
    .transform((value) => (value === '' ? null : value)),
  links_per_month: count(1_000_000_000, QUOTE_MESSAGES.links_per_month),
  team_size: count(1_000_000, QUOTE_MESSAGES.team_size),
  message: z
    .string()
    .max(5000, { error: QUOTE_MESSAGES.message })
    .transform((value) => (value.trim() === '' ? null : value.trim())),
});
export type QuoteRequest = z.output<typeof quoteRequestSchema>;
