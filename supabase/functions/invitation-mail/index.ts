import { createInvitationMailHandler } from './handler.ts';

Deno.serve(createInvitationMailHandler());
