import { Button } from '@mantine/core';
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
        {(menu) => (
          <>
            {live.length === 0 && <menu.Label>No organizations yet</menu.Label>}
            {live.map((org) => (
              <menu.Item key={org.id} component={Link} to={pathOf(org)}>
                {org.name}
              </menu.Item>
            ))}
            {archived.length > 0 && <menu.Label>Archived</menu.Label>}
            {archived.map((org) => (
              <menu.Item key={org.id} onClick={() => askToRestore(org)}>
                {org.name} (archived)
              </menu.Item>
            ))}
            {canCreate && (
              <>
                <menu.Divider />
                <menu.Item component={Link} to={paths['org.onboarding']}>
                  Create Organization
                </menu.Item>
              </>
            )}
          </>
        )}
      </MenuOnFirstUse>
      {modal}
    </>
  );
}
