import { createKioskUsersHandler } from './handler.ts';

Deno.serve(createKioskUsersHandler());
