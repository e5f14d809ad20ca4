import {
  customAliasAccess,
  domainChoices,
  type CustomAliasAccess,
  type DomainChoice,
  type DomainViewer,
} from '@shortlane/shared/domains.ts';
import { can, canBulkCreate, type FeatureContext } from '@shortlane/shared/features.ts';
import { useMemo } from 'react';
import { useCreateFormDomainsQuery } from '../../../data/links-create-domains-query.ts';
import type { LinkWorkspace } from '../../../data/links-create-mutation.ts';
import { useTeamAccountsQuery } from '../../../data/links-create-teams-query.ts';
import { useProfileQuery } from '../../../data/profile-query.ts';
import { STANDALONE_TEAM_ORG } from '../../../data/teams-query.ts';
import { useAppState } from '../../../state/appState.ts';
import { domainOptionsFor, type WorkspaceAccounts } from './domainOptions.ts';
import {
  teamOptions,
  teamsInScope,
  workspaceFor,
  type OrganizationScope,
  type TeamOption,
} from './workspace.ts';

export interface CreateFormModel {
  /** Domains (and for users, their teams' accounts) are still loading. */
  loading: boolean;
  /** The domain list could not be read. */
  failed: boolean;
  retry: () => void;
  guest: boolean;
  domainViewer: DomainViewer;
  choices: DomainChoice[];
  aliasAccess: CustomAliasAccess;
  tagsAllowed: boolean;
  expiryAllowed: boolean;
  canBulk: boolean;
  teamOptions: TeamOption[];
  workspace: LinkWorkspace;
  /** The account the link goes to (for the limits data); null for guests or while loading. */
  accountId: string | null;
}

/**
 * What the create form may offer the viewer for the chosen team and domain: the domain choices
 * (shared's domainChoices over the workspace's domains), custom alias, tags, expiry and bulk
 * gates (shared's features), the team choice, and where the link goes.
 */
export function useCreateFormModel(input: {
  organization: OrganizationScope | null;
  teamId: string;
  domain: string;
}): CreateFormModel {
  const { viewer, status } = useAppState();
  const domains = useCreateFormDomainsQuery();
  const profile = useProfileQuery();
  const teams = useMemo(
    () => teamsInScope(viewer?.teams ?? [], input.organization),
    [viewer?.teams, input.organization],
  );
  const teamIds = useMemo(() => teams.map((team) => team.id), [teams]);
  const teamAccounts = useTeamAccountsQuery(teamIds);

  return useMemo((): CreateFormModel => {
    const selectedTeam = teams.find((team) => team.id === input.teamId) ?? null;
    const workspace = workspaceFor(input.teamId, teams, input.organization);
    const accounts = teamAccounts.data?.find((entry) => entry.teamId === selectedTeam?.id);
    const workspaceAccounts: WorkspaceAccounts = selectedTeam
      ? {
          accountId: accounts?.accountId ?? null,
          organizationAccountId: accounts?.organizationAccountId ?? null,
        }
      : {
          accountId: profile.data?.personal_account_id ?? null,
          organizationAccountId: input.organization?.accountId ?? null,
        };
    const inOrganization =
      input.organization != null ||
      (selectedTeam != null && selectedTeam.orgSlug !== STANDALONE_TEAM_ORG);
    const domainViewer: DomainViewer = viewer
      ? {
          loggedIn: true,
          verified: viewer.emailVerified,
          subscribed: viewer.subscribed,
          inOrganization,
        }
      : { loggedIn: false };
    const choices = domainChoices(
      domainOptionsFor(domains.data ?? [], workspaceAccounts),
      domainViewer,
      selectedTeam?.slug ?? null,
    );
    const features: FeatureContext = {
      kind: 'personal',
      user: viewer ? { features: viewer.features } : null,
      teamModeTeam: null,
    };
    const selectedOption = choices.find((choice) => choice.option.domain === input.domain);
    return {
      // Until the viewer is known the form cannot tell a guest from a user.
      loading:
        status === 'loading' ||
        domains.isPending ||
        (viewer != null && teamIds.length > 0 && teamAccounts.isPending),
      failed: domains.isError,
      retry: () => void domains.refetch(),
      guest: viewer == null,
      domainViewer,
      choices,
      aliasAccess: customAliasAccess({
        viewer: domainViewer,
        planAllowsCustomAlias: can(features, 'use_custom_alias'),
        domain: selectedOption?.option ?? null,
      }),
      tagsAllowed: viewer != null && can(features, 'use_tags'),
      expiryAllowed: viewer != null && can(features, 'manage_expiration'),
      canBulk: viewer != null && canBulkCreate(features),
      teamOptions: viewer ? teamOptions(teams, input.organization) : [],
      workspace,
      accountId: viewer ? workspaceAccounts.accountId : null,
    };
  }, [
    viewer,
    status,
    domains,
    profile.data,
    teams,
    teamIds,
    teamAccounts,
    input.teamId,
    input.domain,
    input.organization,
  ]);
}
