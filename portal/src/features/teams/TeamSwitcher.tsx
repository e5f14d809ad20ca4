import { Button, Menu } from '@mantine/core';
import { LINK_STYLE } from '../../layout/nav/linkStyle.ts';
import type { Viewer } from '../../state/appState.ts';
import { useTeamSwitch } from './useTeamSwitch.ts';

/**
 * The navigation's team mode (app-shell 4): which workspace the user works in, and the switch
 * to a team or back to their account. Shown only to users with teams allowed and a team.
 */
export function TeamSwitcher({ viewer }: { viewer: Viewer }) {
  const { switchTo, pending } = useTeamSwitch();
  const current = viewer.currentTeam;
  return (
    <Menu position="bottom-end" width={260}>
      <Menu.Target>
        <Button
          {...LINK_STYLE}
          loading={pending}
          rightSection={<span aria-hidden="true">▾</span>}
          aria-label={`Workspace: ${current ? `team ${current.name}` : 'your account'}`}
        >
          {current ? current.name : 'Personal'}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>Work in</Menu.Label>
        <Menu.Item
          disabled={current == null}
          aria-current={current == null ? 'true' : undefined}
          onClick={() => void switchTo(null)}
        >
          Your account
        </Menu.Item>
        {viewer.teams.map((team) => (
          <Menu.Item
            key={team.id}
            disabled={current?.id === team.id}
            aria-current={current?.id === team.id ? 'true' : undefined}
            onClick={() => void switchTo(team)}
          >
            {team.name}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
