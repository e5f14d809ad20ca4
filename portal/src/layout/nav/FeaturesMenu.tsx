import { Button } from '@mantine/core';
import { Link } from 'react-router-dom';
import { MenuOnFirstUse } from '../../components/MenuOnFirstUse.tsx';
import { LINK_STYLE } from './linkStyle.ts';
import { paths } from '../../routes/paths.ts';
import { FEATURE_LINKS } from './featureLinks.ts';

/** The Features dropdown of the desktop navigation (created on first use: MenuOnFirstUse). */
export function FeaturesMenu() {
  return (
    <MenuOnFirstUse
      position="bottom-start"
      width={220}
      target={() => (
        <Button {...LINK_STYLE} rightSection={<span aria-hidden="true">▾</span>}>
          Features
        </Button>
      )}
    >
      {(menu) =>
        FEATURE_LINKS.map((link) => (
          <menu.Item key={link.name} component={Link} to={paths[link.name]}>
            {link.label}
          </menu.Item>
        ))
      }
    </MenuOnFirstUse>
  );
}
