import { deliverWebhooks } from './handler.ts';

Deno.serve(deliverWebhooks);
