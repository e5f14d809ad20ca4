import { Button, Menu } from '@mantine/core';
import { Link } from 'react-router-dom';
import { MenuOnFirstUse } from '../../components/MenuOnFirstUse.tsx';
import { LINK_STYLE } from './linkStyle.ts';
import { useOrganizationPicker } from '../../features/organization/useOrganizationPicker.tsx';
import { paths } from '../../routes/paths.ts';

/** The organizations dropdown for developers; 'Create Organization' when teams are allowed. */
export function OrganizationsMenu({ canCreate }: { canCreate: boolean }) {
  const { live, archived, pathOf, askToRestore, modal } = useOrganizationPicker();
  return (
    <>
      <MenuOnFirstUse
        position="bottom-start"
        width={240}
        target={() => (
          <Button {...LINK_STYLE} rightSection={<span aria-hidden="true">▾</span>}>
            Organizations
          </Button>
        )}
      >
        {live.length === 0 && <Menu.Label>No organizations yet</Menu.Label>}
        {live.map((org) => (
          <Menu.Item key={org.id} component={Link} to={pathOf(org)}>
            {org.name}
          </Menu.Item>
        ))}
        {archived.length > 0 && <Menu.Label>Archived</Menu.Label>}
        {archived.map((org) => (
          <Menu.Item key={org.id} onClick={() => askToRestore(org)}>
            {org.name} (archived)
          </Menu.Item>
        ))}
        {canCreate && (
          <>
            <Menu.Divider />
            <Menu.Item component={Link} to={paths['org.onboarding']}>
              Create Organization
            </Menu.Item>
          </>
        )}
      </MenuOnFirstUse>
      {modal}
    </>
  );
}
