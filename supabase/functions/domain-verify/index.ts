import { verifyDomains } from './handler.ts';

Deno.serve(verifyDomains);
