import { Button } from '@mantine/core';
import { MenuOnFirstUse } from '../../components/MenuOnFirstUse.tsx';
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
    <MenuOnFirstUse
      position="bottom-end"
      width={260}
      target={() => (
        <Button
          {...LINK_STYLE}
          loading={pending}
          rightSection={<span aria-hidden="true">▾</span>}
          aria-label={`Workspace: ${current ? `team ${current.name}` : 'your account'}`}
        >
          {current ? current.name : 'Personal'}
        </Button>
      )}
    >
      {(menu) => (
        <>
          <menu.Label>Work in</menu.Label>
          <menu.Item
            disabled={current == null}
            aria-current={current == null ? 'true' : undefined}
            onClick={() => void switchTo(null)}
          >
            Your account
          </menu.Item>
          {viewer.teams.map((team) => (
            <menu.Item
              key={team.id}
              disabled={current?.id === team.id}
              aria-current={current?.id === team.id ? 'true' : undefined}
              onClick={() => void switchTo(team)}
            >
              {team.name}
            </menu.Item>
          ))}
        </>
      )}
    </MenuOnFirstUse>
  );
}
