import { createPaddleWebhookHandler } from './handler.ts';

Deno.serve(createPaddleWebhookHandler());
