/**
 * Compile-time checks of `href`'s parameter typing: `tsc -p portal` fails if a line marked
 * @ts-expect-error starts to compile, or another line stops compiling.
 */
import { href } from './paths.ts';
href('homepage');
href('email_verify');
href('email_verify', { userId: 'x' });
href('analytics', { hash: 'x' });
// @ts-expect-error -- a required parameter is missing
href('analytics');
// @ts-expect-error -- a required parameter is missing
href('org.team', { org: 'acme' });
// @ts-expect-error -- no such parameter
href('homepage', { x: '1' });
href('org.team', { org: 'acme', team: 'sales' }, { coupon: 'X' });
