import { createImpersonateHandler } from './handler.ts';

Deno.serve(createImpersonateHandler());
