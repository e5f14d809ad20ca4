import { Anchor, Avatar, Box, Burger, Button, Group } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { lazy } from 'react';
import { Link } from 'react-router-dom';
import { useLogout } from '../../auth/useLogout.ts';
import { LinkIcon } from '../../components/icons.tsx';
import { LazyOnFirstUse } from '../../components/LazyOnFirstUse.tsx';
import { LoadingDrawer } from '../../components/LoadingDialog.tsx';
import { useConfig } from '../../lib/servicesContext.ts';
import { paths } from '../../routes/paths.ts';
import { useSidePanel } from '../sidePanel.ts';
import classes from './NavBar.module.css';
import { FeaturesMenu } from './FeaturesMenu.tsx';
import { LINK_STYLE } from './linkStyle.ts';
import { MOBILE_MENU_FRAME } from './mobileMenuFrame.ts';
import { InvitationsPopover } from './InvitationsPopover.tsx';
import { CREATE_LABEL, navModel } from './navModel.ts';
import { OrganizationsMenu } from './OrganizationsMenu.tsx';
import { TeamSwitcher } from '../../features/teams/TeamSwitcher.tsx';
import { CartLink, HelpLink, NotificationBell } from './ShellIcons.tsx';
import { useNavViewer } from './useNavViewer.ts';

/** The navigation bar of link-creation 2: a desktop bar from lg (992 px), a menu below it. */
// The mobile menu's code loads when it is first opened.
const MobileMenu = lazy(() => import('./MobileMenu.tsx'));

export function NavBar() {
  const who = useNavViewer();
  const model = navModel(who);
  const viewer = who.kind === 'user' ? who.viewer : null;
  const { productName, externalUrls } = useConfig();
  const sidePanel = useSidePanel();
  const logOut = useLogout();
  const [menuOpened, menu] = useDisclosure(false);

  return (
    <header className={classes.header}>
      <Group className={classes.bar} gap="sm" wrap="nowrap" justify="space-between">
        <Link to={model.logoTo} className={classes.logo} aria-label={`${productName} home`}>
          <LinkIcon width={24} height={24} />
          {productName}
        </Link>

        <Box component="nav" aria-label="Main" visibleFrom="lg" className={classes.desktop}>
          <Group gap={4} wrap="nowrap">
            {model.create && (
              <Button size="sm" onClick={sidePanel.open}>
                {CREATE_LABEL}
              </Button>
            )}
            {model.links.myUrls && (
              <Button component={Link} to={paths['my-urls']} {...LINK_STYLE}>
                My URLs
              </Button>
            )}
            {model.links.plans && (
              <Button component={Link} to={paths['signup.pricing']} {...LINK_STYLE}>
                Plans
              </Button>
            )}
            {model.links.blog && (
              <Button component="a" href={externalUrls.blog} {...LINK_STYLE}>
                Blog
              </Button>
            )}
            {model.links.features && <FeaturesMenu />}
            {model.organizations && <OrganizationsMenu canCreate={model.organizations.canCreate} />}
          </Group>

          <Group gap={4} wrap="nowrap">
            {model.icons.help && <HelpLink />}
            {model.icons.notifications && <NotificationBell />}
            {model.icons.invitations && viewer && <InvitationsPopover viewer={viewer} />}
            {model.icons.cart && <CartLink />}
            {model.signUpAndIn && (
              <>
                <Button component={Link} to={paths.register} variant="default">
                  Sign Up
                </Button>
                <Button component={Link} to={paths.login}>
                  Sign In
                </Button>
              </>
            )}
            {model.teamSwitch && viewer && <TeamSwitcher viewer={viewer} />}
            {model.user && (
              <>
                <Anchor
                  component={Link}
                  to={paths.settings}
                  className={classes.userName}
                  fw={600}
                  px="xs"
                  title={model.user.name}
                >
                  <Group gap={6} wrap="nowrap" component="span">
                    {viewer?.photoUrl && (
                      // Decorative: the link is named by the user's name beside it.
                      <Avatar src={viewer.photoUrl} alt="" size={28} radius="xl" />
                    )}
                    {model.user.name}
                  </Group>
                </Anchor>
                {model.user.kiosk && (
                  <Button component={Link} to={paths.kiosk} {...LINK_STYLE}>
                    Kiosk
                  </Button>
                )}
                {model.user.backToMyAccount && (
                  <Button
                    component={Link}
                    to={paths['kiosk.user.stopImpersonating']}
                    color="orange"
                  >
                    Back To My Account
                  </Button>
                )}
              </>
            )}
            {model.logOut && (
              <Button variant="default" onClick={logOut}>
                Log out
              </Button>
            )}
          </Group>
        </Box>

        <Burger
          hiddenFrom="lg"
          opened={menuOpened}
          onClick={menu.toggle}
          aria-label={menuOpened ? 'Close menu' : 'Open menu'}
          aria-expanded={menuOpened}
          aria-controls="mobile-menu"
        />
      </Group>
      <LazyOnFirstUse
        active={menuOpened}
        fallback={
          <LoadingDrawer
            {...MOBILE_MENU_FRAME}
            opened={menuOpened}
            onClose={menu.close}
            loadingLabel="Loading the menu"
          />
        }
      >
        <MobileMenu
          opened={menuOpened}
          onClose={menu.close}
          model={model}
          viewer={viewer}
          onCreate={sidePanel.open}
          onLogOut={logOut}
        />
      </LazyOnFirstUse>
    </header>
  );
}
