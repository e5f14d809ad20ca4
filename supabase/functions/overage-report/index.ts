import { reportOverage } from './handler.ts';

Deno.serve(reportOverage);
