import type { AuthProvider, DataProvider } from 'react-admin';
import { Admin, CustomRoutes } from 'react-admin';
import { defaultI18nProvider, ForgotPasswordPage, LoginPage, SetPasswordPage } from 'ra-supabase';
import { Route } from 'react-router-dom';
import { Dashboard } from './dashboard/Dashboard.tsx';

export interface KioskProviders {
  authProvider: AuthProvider;
  dataProvider: DataProvider;
}

/**
 * The staff back-office. Every page needs a session (requireAuth); the password pages of
 * ra-supabase's login flow are the only ones outside the layout. Resources arrive one folder each.
 */
export function App({ authProvider, dataProvider }: KioskProviders) {
  return (
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
  );
}
