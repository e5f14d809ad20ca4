import { createDnsHandler } from './handler.ts';

Deno.serve(createDnsHandler());
