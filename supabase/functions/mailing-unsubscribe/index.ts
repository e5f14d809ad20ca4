import { mailingUnsubscribe } from './handler.ts';

Deno.serve(mailingUnsubscribe);
