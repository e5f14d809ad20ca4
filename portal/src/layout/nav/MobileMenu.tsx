import { Divider, Drawer, NavLink, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { useCartQuantityQuery } from '../../data/cart-quantity-query.ts';
import { usePendingInvitationsQuery } from '../../data/invitations-query.ts';
import { useUnreadNotificationCountQuery } from '../../data/notifications-unread-query.ts';
import { useOrganizationPicker } from '../../features/organization/useOrganizationPicker.tsx';
import { useConfig } from '../../lib/servicesContext.ts';
import { href, paths } from '../../routes/paths.ts';
import type { Viewer } from '../../state/appState.ts';
import { FEATURE_LINKS } from './featureLinks.ts';
import { InvitationList } from './InvitationList.tsx';
import { MOBILE_MENU_FRAME } from './mobileMenuFrame.ts';
import { CREATE_LABEL, type NavModel } from './navModel.ts';
import { useCurrentOrganizationSlug } from './useNavViewer.ts';

interface Props {
  opened: boolean;
  onClose: () => void;
  model: NavModel;
  viewer: Viewer | null;
  onCreate: () => void;
  onLogOut: () => void;
}

const withCount = (label: string, count: number | undefined) =>
  count ? `${label} (${count})` : label;

/** The signed-in user's counted links (notifications, invitations, cart), as menu rows. */
function CountedLinks({ viewer, close }: { viewer: Viewer; close: () => void }) {
  const unread = useUnreadNotificationCountQuery().data;
  const invitations = usePendingInvitationsQuery(viewer.email).data;
  const cart = useCartQuantityQuery().data;
  return (
    <>
      <NavLink
        component={Link}
        to={paths.notifications}
        label={withCount('Notifications', unread)}
        onClick={close}
      />
      <NavLink
        component="button"
        label={withCount('Invitations', invitations?.length)}
        childrenOffset="md"
      >
        <InvitationList viewer={viewer} invitations={invitations ?? []} />
      </NavLink>
      <NavLink
        component={Link}
        to={paths['shopping-cart']}
        label={withCount('Shopping cart', cart)}
        onClick={close}
      />
    </>
  );
}

function OrganizationLinks({ close, canCreate }: { close: () => void; canCreate: boolean }) {
  const { live, archived, pathOf, askToRestore, modal } = useOrganizationPicker();
  return (
    <NavLink component="button" label="Organizations" childrenOffset="md" defaultOpened>
      {live.map((org) => (
        <NavLink key={org.id} component={Link} to={pathOf(org)} label={org.name} onClick={close} />
      ))}
      {archived.map((org) => (
        <NavLink
          key={org.id}
          component="button"
          label={`${org.name} (archived)`}
          onClick={() => askToRestore(org)}
        />
      ))}
      {canCreate && (
        <NavLink
          component={Link}
          to={paths['org.onboarding']}
          label="Create Organization"
          onClick={close}
        />
      )}
      {modal}
    </NavLink>
  );
}

/** Billing and, with an organization at hand, its settings, audit and (developers) helpdesk. */
function MobileExtras({ model, close }: { model: NavModel; close: () => void }) {
  const org = useCurrentOrganizationSlug(model.mobile.organizationItems);
  const link = (to: string, label: string) => (
    <NavLink key={label} component={Link} to={to} label={label} onClick={close} />
  );
  return (
    <>
      {model.mobile.billing && link(paths['settings.subscription'], 'Billing')}
      {org != null && (
        <>
          {link(href('org.settings.profile', { org }), 'Organization Settings')}
          {link(href('org.settings.teams', { org }), 'Team Settings')}
          {link(href('org.audit', { org }), 'Audit Trail')}
          {model.mobile.helpdesk && link(href('org.helpdesk', { org }), 'Helpdesk')}
        </>
      )}
    </>
  );
}

/** The mobile menu: the bar's items as a list, plus the mobile extras and log out. */
export default function MobileMenu({ opened, onClose, model, viewer, onCreate, onLogOut }: Props) {
  const { externalUrls } = useConfig();
  const row = (to: string, label: ReactNode) => (
    <NavLink component={Link} to={to} label={label} onClick={onClose} />
  );
  return (
    <Drawer {...MOBILE_MENU_FRAME} opened={opened} onClose={onClose}>
      <Stack component="nav" aria-label="Mobile" gap={0}>
        {model.create && (
          <NavLink
            component="button"
            label={CREATE_LABEL}
            onClick={() => {
              onClose();
              onCreate();
            }}
          />
        )}
        {model.links.myUrls && row(paths['my-urls'], 'My URLs')}
        {model.links.plans && row(paths['signup.pricing'], 'Plans')}
        {model.links.blog && <NavLink component="a" href={externalUrls.blog} label="Blog" />}
        {model.links.features && (
          <NavLink component="button" label="Features" childrenOffset="md">
            {FEATURE_LINKS.map((feature) => (
              <NavLink
                key={feature.name}
                component={Link}
                to={paths[feature.name]}
                label={feature.label}
                onClick={onClose}
              />
            ))}
          </NavLink>
        )}
        {model.organizations && (
          <OrganizationLinks close={onClose} canCreate={model.organizations.canCreate} />
        )}
        {model.icons.help && row(paths.help, 'Help')}
        {viewer && !model.minimal && <CountedLinks viewer={viewer} close={onClose} />}
        {model.signUpAndIn && (
          <>
            {row(paths.register, 'Sign Up')}
            {row(paths.login, 'Sign In')}
          </>
        )}
        {model.user && (
          <>
            <Divider my="xs" />
            {row(paths.settings, model.user.name)}
            {/* Team mode: the teams page lists the teams with their switch buttons. */}
            {model.teamSwitch &&
              row(
                paths['settings.teams'],
                viewer?.currentTeam ? `Team: ${viewer.currentTeam.name}` : 'Teams',
              )}
            {model.user.kiosk && row(paths.kiosk, 'Kiosk')}
            {model.user.backToMyAccount &&
              row(paths['kiosk.user.stopImpersonating'], 'Back To My Account')}
          </>
        )}
        <MobileExtras model={model} close={onClose} />
        {model.logOut && (
          <NavLink
            component="button"
            label="Log out"
            onClick={() => {
              onClose();
              onLogOut();
            }}
          />
        )}
      </Stack>
    </Drawer>
  );
}
