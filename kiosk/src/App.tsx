import type { AuthProvider, DataProvider } from 'react-admin';
import { Admin, CustomRoutes } from 'react-admin';
import { defaultI18nProvider, ForgotPasswordPage, LoginPage, SetPasswordPage } from 'ra-supabase';
import { BrowserRouter, Route } from 'react-router-dom';
import { Dashboard } from './dashboard/Dashboard.tsx';

export interface KioskProviders {
  authProvider: AuthProvider;
  dataProvider: DataProvider;
}

/**
 * The staff back-office. Every page needs a session (requireAuth); the password pages of
 * ra-supabase's login flow are the only ones outside the layout. Resources arrive one folder each.
 *
 * Paths, not a hash router: Auth appends its tokens to e-mail links as a #fragment, which a hash
 * router would take for a route. Those links land on react-admin's /auth-callback, where
 * ra-supabase's handleCallback moves recovery and invitation tokens on to /set-password.
 */
export function App({ authProvider, dataProvider }: KioskProviders) {
  return (
    <BrowserRouter>
      <Admin
        title="Shortlane kiosk"
        authProvider={authProvider}
        dataProvider={dataProvider}
        i18nProvider={defaultI18nProvider}
        loginPage={LoginPage}
        dashboard={Dashboard}
        requireAuth
      >
        <CustomRoutes noLayout>
          <Route path={SetPasswordPage.path} element={<SetPasswordPage />} />
          <Route path={ForgotPasswordPage.path} element={<ForgotPasswordPage />} />
        </CustomRoutes>
      </Admin>
    </BrowserRouter>
  );
}
