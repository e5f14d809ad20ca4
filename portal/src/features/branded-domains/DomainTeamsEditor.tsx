import { Alert, Button, Checkbox, Group, Radio, Stack, Text } from '@mantine/core';
import { NOTICE_DURATION_MS } from '@shortlane/shared/constants.ts';
import { useState } from 'react';
import { useSetDomainTeamsMutation } from '../../data/branded-domains/domain-mutations.ts';
import type { OrganizationTeam } from '../../data/branded-domains/organization-teams-query.ts';
import { useNotify } from '../../lib/servicesContext.ts';
import { domainError } from './domainErrors.ts';

/**
 * Which teams may use an organization domain: all of them, or the chosen ones (domain_teams).
 * The create form offers the domain only to those teams (link-creation 5).
 */
export function DomainTeamsEditor({
  domain,
  teams,
}: {
  domain: { id: string; domain: string; for_all_teams: boolean; teamIds: string[] };
  teams: readonly OrganizationTeam[];
}) {
  const notify = useNotify();
  const save = useSetDomainTeamsMutation(domain.id);
  const [forAll, setForAll] = useState(domain.for_all_teams);
  const [chosen, setChosen] = useState<string[]>(domain.teamIds);
  const toggle = (teamId: string, on: boolean) =>
    setChosen((current) => (on ? [...current, teamId] : current.filter((id) => id !== teamId)));

  return (
    <Stack gap="sm">
      <Radio.Group
        label={`Teams that may use ${domain.domain}`}
        value={forAll ? 'all' : 'chosen'}
        onChange={(value) => setForAll(value === 'all')}
      >
        <Group mt="xs">
          <Radio value="all" label="All teams" />
          <Radio value="chosen" label="Chosen teams" />
        </Group>
      </Radio.Group>
      {!forAll &&
        (teams.length === 0 ? (
          <Text size="sm">The organization has no teams yet.</Text>
        ) : (
          <Stack gap={4}>
            {teams.map((team) => (
              <Checkbox
                key={team.id}
                label={team.name}
                checked={chosen.includes(team.id)}
                onChange={(event) => toggle(team.id, event.currentTarget.checked)}
              />
            ))}
          </Stack>
        ))}
      {save.isError && (
        <Alert color="red" role="alert">
          {domainError(save.error)?.message}
        </Alert>
      )}
      <Group>
        <Button
          variant="light"
          loading={save.isPending}
          onClick={() =>
            save.mutate(
              { forAllTeams: forAll, teamIds: chosen, current: domain.teamIds },
              {
                onSuccess: () =>
                  notify({
                    message: `Teams of ${domain.domain} saved.`,
                    tone: 'success',
                    durationMs: NOTICE_DURATION_MS.default,
                  }),
              },
            )
          }
        >
          Save teams
        </Button>
      </Group>
    </Stack>
  );
}
