import { whoami } from './handler.ts';

Deno.serve(whoami);
