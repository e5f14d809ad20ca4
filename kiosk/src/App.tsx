import type { AuthProvider, DataProvider } from 'react-admin';
import { Admin, CustomRoutes, Resource } from 'react-admin';
import { ForgotPasswordPage, LoginPage, SetPasswordPage } from 'ra-supabase';
import { BrowserRouter, Navigate, Route, useParams } from 'react-router-dom';
import { KioskLayout } from './layout/KioskLayout.tsx';
import { KioskConfigContext, type KioskConfig } from './lib/kioskConfig.ts';
import { kioskI18nProvider } from './providers/i18nProvider.ts';
import accessInvitations from './resources/access-invitations/index.tsx';
import { AliasLookup } from './resources/aliases/AliasLookup.tsx';
import aliases from './resources/aliases/index.ts';
import apiTokens from './resources/api-tokens/index.tsx';
import announcements from './resources/announcements/index.tsx';
import bannedDomains from './resources/banned_domains/index.tsx';
import zones from './resources/cloudflare-zones/index.tsx';
import { DomainLookup } from './resources/domains/DomainLookup.tsx';
import domains from './resources/domains/index.tsx';
import ips from './resources/ips/index.tsx';
import longUrls from './resources/long-urls/index.ts';
import { organizations, teams } from './resources/organizations/index.tsx';
import passwordDictionary from './resources/password_dictionary/index.tsx';
import quoteRequests from './resources/quote-requests/index.tsx';
import { LinkStatsPage } from './resources/stats/LinkStatsPage.tsx';
import { SystemStatsPage } from './resources/stats/SystemStatsPage.tsx';
import supportRequests from './resources/support-requests/index.tsx';
import surveys from './resources/surveys/index.tsx';
import surveyQuestions from './resources/surveys/questions.tsx';
import tldOverprice from './resources/tld_overprice/index.tsx';
import users from './resources/users/index.ts';
import webhooks from './resources/webhooks/index.tsx';

const i18nProvider = kioskI18nProvider();

export interface KioskProviders {
  authProvider: AuthProvider;
  dataProvider: DataProvider;
  config: KioskConfig;
}

/** user/{userId} and surveys/{survey}, the spec's addresses, open the record's page. */
function ShowRedirect({ resource, param }: { resource: string; param: string }) {
  const params = useParams();
  return <Navigate to={`/${resource}/${encodeURIComponent(params[param] ?? '')}/show`} replace />;
}

/**
 * The staff back-office. Every page needs a session (requireAuth) and, inside the layout, staff
 * access (KioskLayout); the password pages of ra-supabase's login flow are the only ones outside.
 * With no dashboard, "/" opens the first resource: users. Resource names and custom routes are
 * the spec's kiosk paths.
 *
 * Paths, not a hash router: Auth appends its tokens to e-mail links as a #fragment, which a hash
 * router would take for a route. Those links land on react-admin's /auth-callback, where
 * ra-supabase's handleCallback moves recovery and invitation tokens on to /set-password.
 */
export function App({ authProvider, dataProvider, config }: KioskProviders) {
  return (
    <KioskConfigContext value={config}>
      <BrowserRouter>
        <Admin
          title="Shortlane kiosk"
          authProvider={authProvider}
          dataProvider={dataProvider}
          i18nProvider={i18nProvider}
          loginPage={LoginPage}
          layout={KioskLayout}
          requireAuth
        >
          <Resource name="users" {...users} recordRepresentation="email" />
          <Resource
            name="organizations"
            {...organizations}
            options={{ label: 'Organizations' }}
            recordRepresentation="name"
          />
          <Resource
            name="teams"
            {...teams}
            options={{ label: 'Teams' }}
            recordRepresentation="name"
          />
          <Resource name="organization_users" />
          <Resource name="sso-domains" />
          <Resource name="team_members" />
          <Resource name="subscriptions" />
          <Resource name="invoices" />
          <Resource name="orders" />
          <Resource name="aliases" {...aliases} recordRepresentation="alias" />
          <Resource
            name="long-urls"
            {...longUrls}
            options={{ label: 'Long URLs' }}
            recordRepresentation="url"
          />
          <Resource name="domains" {...domains} recordRepresentation="domain" />
          <Resource
            name="banned_domains"
            {...bannedDomains}
            options={{ label: 'Banned domains' }}
          />
          <Resource
            name="ips"
            {...ips}
            options={{ label: 'IP blocks' }}
            recordRepresentation="range"
          />
          <Resource
            name="password_dictionary"
            {...passwordDictionary}
            options={{ label: 'Password dictionary' }}
          />
          <Resource
            name="tld_overprice"
            {...tldOverprice}
            options={{ label: 'TLD overprice' }}
            recordRepresentation="tld"
          />
          <Resource
            name="cloudflare/zones"
            {...zones}
            options={{ label: 'DNS zones' }}
            recordRepresentation="name"
          />
          <Resource
            name="support-requests"
            {...supportRequests}
            options={{ label: 'Support requests' }}
            recordRepresentation="subject"
          />
          <Resource name="profiles" />
          <Resource name="announcements" {...announcements} recordRepresentation="title" />
          <Resource name="surveys" {...surveys} recordRepresentation="title" />
          <Resource name="survey_questions" {...surveyQuestions} />
          <Resource name="survey_results" />
          <Resource name="alias_clicks" />
          <Resource
            name="access-invitations"
            {...accessInvitations}
            options={{ label: 'Access invitations' }}
            recordRepresentation="email"
          />
          <Resource
            name="webhooks"
            {...webhooks}
            options={{ label: 'Webhooks' }}
            recordRepresentation="url"
          />
          <Resource name="webhook_attempts" />
          <Resource
            name="quote-requests"
            {...quoteRequests}
            options={{ label: 'Quote requests' }}
            recordRepresentation="email"
          />
          <Resource
            name="api-tokens"
            {...apiTokens}
            options={{ label: 'API tokens' }}
            recordRepresentation="name"
          />
          <CustomRoutes>
            <Route
              path="/user/:userId"
              element={<ShowRedirect resource="users" param="userId" />}
            />
            <Route path="/alias/:domain/:alias" element={<AliasLookup />} />
            <Route path="/domain/:domain" element={<DomainLookup />} />
            <Route
              path="/surveys/:survey"
              element={<ShowRedirect resource="surveys" param="survey" />}
            />
            <Route path="/stats/system/:domain?" element={<SystemStatsPage />} />
            <Route path="/stats/tinyurl" element={<LinkStatsPage />} />
          </CustomRoutes>
          <CustomRoutes noLayout>
            <Route path={SetPasswordPage.path} element={<SetPasswordPage />} />
            <Route path={ForgotPasswordPage.path} element={<ForgotPasswordPage />} />
          </CustomRoutes>
        </Admin>
      </BrowserRouter>
    </KioskConfigContext>
  );
}
