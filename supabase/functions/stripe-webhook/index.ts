import { createStripeWebhookHandler } from './handler.ts';

Deno.serve(createStripeWebhookHandler());
