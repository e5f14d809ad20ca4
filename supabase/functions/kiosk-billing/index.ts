import { createKioskBillingHandler } from './handler.ts';

Deno.serve(createKioskBillingHandler());
