import { useDisclosure } from '@mantine/hooks';
import { useMemo, type ReactNode } from 'react';
import { AdSlot } from '../features/ads/AdSlot.tsx';
import { Promotions } from '../features/promotions/Promotions.tsx';
import { CookieNotice } from './CookieNotice.tsx';
import { Footer } from './Footer.tsx';
import { NavBar } from './nav/NavBar.tsx';
import { MAIN_ID } from './RouteFocus.tsx';
import classes from './ShellLayout.module.css';
import { SidePanel } from './SidePanel.tsx';
import { SidePanelContext, type SidePanelControls } from './sidePanel.ts';
import { SurveyBanner } from './SurveyBanner.tsx';

/**
 * The shell of app-shell 2: navigation, an optional survey banner, the page, a side panel, a
 * cookie notice and a footer. (The modals live above it, in StateProviders, but the promotions'
 * banner and modals, which come with the shell.) The cookie notice
 * takes its own place in the flow, under the navigation: floating over the page, it hid the
 * controls beneath it (link tabs, search) until it was accepted.
 */
export function ShellLayout({ children }: { children: ReactNode }) {
  const [opened, { open, close }] = useDisclosure(false);
  const sidePanel = useMemo<SidePanelControls>(
    () => ({ opened, open, close }),
    [opened, open, close],
  );
  return (
    <SidePanelContext value={sidePanel}>
      <div className={classes.shell}>
        <a href={`#${MAIN_ID}`} className={classes.skipLink}>
          Skip to content
        </a>
        <NavBar />
        <CookieNotice />
        <SurveyBanner />
        <Promotions />
        <main id={MAIN_ID} tabIndex={-1} className={classes.main}>
          {children}
        </main>
        <SidePanel />
        <AdSlot slot="shell-footer" />
        <Footer />
      </div>
    </SidePanelContext>
  );
}
