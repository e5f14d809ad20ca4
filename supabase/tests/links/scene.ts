import type pg from 'pg';
import { createCast, type Cast } from '../support/index.ts';
import {
  createDomain,
  createLink,
  givePlan,
  LINK_FEATURES,
  type TestDomain,
  type TestLink,
} from './fixtures.ts';

/**
 * The permission-matrix scene: the support harness's cast (an organization with one team and
 * every kind of actor) on a plan with every link feature, and one link of each kind:
 * - teamByMember, teamByAdmin: links of the team (made in the organization);
 * - orgPersonal: the member's personal link made in organization mode;
 * - stranger: the stranger's personal link;
 * - guest: a guest's link (no account).
 */
export interface LinkScene {
  cast: Cast;
  domain: TestDomain;
  links: {
    teamByMember: TestLink;
    teamByAdmin: TestLink;
    orgPersonal: TestLink;
    stranger: TestLink;
    guest: TestLink;
  };
}

export async function createLinkScene(client: pg.ClientBase): Promise<LinkScene> {
  const cast = await createCast(client);
  await givePlan(client, cast.organization.accountId, { features: LINK_FEATURES });
  const domain = await createDomain(client, { allowForGuests: true });
  const organizationId = cast.organization.id;
  const teamByMember = await createLink(client, {
    accountId: cast.team.accountId,
    createdBy: cast.member.id,
    domainId: domain.id,
    organizationId,
    tags: ['team-tag'],
  });
  const teamByAdmin = await createLink(client, {
    accountId: cast.team.accountId,
    createdBy: cast.teamAdmin.id,
    domainId: domain.id,
    organizationId,
  });
  const orgPersonal = await createLink(client, {
    accountId: cast.member.personalAccountId,
    createdBy: cast.member.id,
    domainId: domain.id,
    organizationId,
    tags: ['mine'],
  });
  const stranger = await createLink(client, {
    accountId: cast.stranger.personalAccountId,
    createdBy: cast.stranger.id,
    domainId: domain.id,
  });
  const guest = await createLink(client, { accountId: null, createdBy: null, domainId: domain.id });
  return { cast, domain, links: { teamByMember, teamByAdmin, orgPersonal, stranger, guest } };
}

export type SceneLinkName = keyof LinkScene['links'];

/** Who sees which of the scene's links, by actor (the contract's resolution). */
export const VISIBLE_LINKS: Record<
  Exclude<keyof Cast, 'organization' | 'team' | 'limitedRole' | 'supervisorRole'>,
  SceneLinkName[]
> = {
  // The owner holds everything on the team and supervises the organization.
  owner: ['teamByMember', 'teamByAdmin', 'orgPersonal'],
  // links.read on the organization's own account, which owns no links; nothing on the team.
  orgUser: [],
  supervisor: ['teamByMember', 'teamByAdmin', 'orgPersonal'],
  teamAdmin: ['teamByMember', 'teamByAdmin'],
  // The team's links, and their own personal link.
  member: ['teamByMember', 'teamByAdmin', 'orgPersonal'],
  viewer: ['teamByMember', 'teamByAdmin'],
  stranger: ['stranger'],
  staff: ['teamByMember', 'teamByAdmin', 'orgPersonal', 'stranger', 'guest'],
};

export type ActorName = keyof typeof VISIBLE_LINKS;
export const ACTORS = Object.keys(VISIBLE_LINKS) as ActorName[];

export function linkIds(scene: LinkScene, names: SceneLinkName[], pick: keyof TestLink = 'id') {
  return names.map((name) => scene.links[name][pick]).sort();
}
