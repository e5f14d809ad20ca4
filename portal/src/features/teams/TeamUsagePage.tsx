import { Alert, Button, Progress, Stack, Table, Text } from '@mantine/core';
import { SettingsSection } from '../../components/SettingsSection.tsx';
import { PageLoader } from '../../components/PageLoader.tsx';
import { useAccountLimitsQuery } from '../../data/account-limits-query.ts';
import { useTeamMembersQuery } from '../../data/teams/team-members-query.ts';
import type { TeamDetail } from '../../data/teams/team-query.ts';
import { TeamSettingsFrame } from './TeamSettingsFrame.tsx';

const LIMIT_LABELS: Record<string, string> = {
  max_active_aliases: 'Active short links',
  max_web_credits: 'Credits',
};

const number = new Intl.NumberFormat('en');

function Usage({ team }: { team: TeamDetail }) {
  const limits = useAccountLimitsQuery(team.accountId);
  const members = useTeamMembersQuery(team.id);

  if (limits.isPending) return <PageLoader />;
  if (limits.isError) {
    return (
      <Alert color="red" title="The team's usage could not be loaded">
        <Button variant="light" size="xs" mt="xs" onClick={() => void limits.refetch()}>
          Try again
        </Button>
      </Alert>
    );
  }
  return (
    <SettingsSection title="This period">
      <Table aria-label="Team usage" verticalSpacing="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>What</Table.Th>
            <Table.Th>Used</Table.Th>
            <Table.Th>Limit</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {Object.entries(limits.data).map(([name, entry]) => {
            if (!entry) return null;
            const label = LIMIT_LABELS[name] ?? name;
            const share = entry.limit ? Math.min(100, (entry.used / entry.limit) * 100) : 0;
            return (
              <Table.Tr key={name}>
                <Table.Td>{label}</Table.Td>
                <Table.Td>
                  <Stack gap={4}>
                    <Text>{number.format(entry.used)}</Text>
                    {entry.limit != null && (
                      <Progress value={share} aria-label={`${label}: ${Math.round(share)}% used`} />
                    )}
                  </Stack>
                </Table.Td>
                <Table.Td>
                  {entry.limit == null ? 'Unlimited' : number.format(entry.limit)}
                </Table.Td>
              </Table.Tr>
            );
          })}
          <Table.Tr>
            <Table.Td>Members</Table.Td>
            <Table.Td>{members.data ? number.format(members.data.length) : '…'}</Table.Td>
            <Table.Td>Set by the plan (invitations count until answered)</Table.Td>
          </Table.Tr>
        </Table.Tbody>
      </Table>
    </SettingsSection>
  );
}

/** organization/{org}/team/{team}/usage: what the team's plan allows and what it used. */
export default function TeamUsagePage() {
  return (
    <TeamSettingsFrame title="Team usage">{(team) => <Usage team={team} />}</TeamSettingsFrame>
  );
}
