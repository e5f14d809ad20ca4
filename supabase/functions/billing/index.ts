import { createBillingHandler } from './handler.ts';

Deno.serve(createBillingHandler());
