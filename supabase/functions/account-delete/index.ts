import { createAccountDeleteHandler } from './handler.ts';

Deno.serve(createAccountDeleteHandler());
