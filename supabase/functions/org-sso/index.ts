import { orgSso } from './handler.ts';

Deno.serve(orgSso);
