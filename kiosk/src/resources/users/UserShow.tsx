import { Chip, Link as MuiLink, Stack } from '@mui/material';
import {
  DateField,
  EditButton,
  FunctionField,
  Labeled,
  NumberField,
  Show,
  TabbedShowLayout,
  TextField,
  TopToolbar,
  useRecordContext,
} from 'react-admin';
import { Link } from 'react-router-dom';
import { YesNoField } from '../../components/YesNoField.tsx';
import { UserApiTokens } from '../api-tokens/index.tsx';
import { PreviewFeatures } from './PreviewFeatures.tsx';
import { BanButton, ImpersonateButton, ResetMfaButton } from './UserActions.tsx';
import { UserBilling } from './UserBilling.tsx';

interface Membership {
  id: string;
  name: string;
  slug: string;
  role: string;
}

function Memberships({ source }: { source: 'teams' | 'organizations'; label?: string }) {
  const record = useRecordContext();
  const items = (record?.[source] ?? []) as Membership[];
  if (items.length === 0) return <span>None</span>;
  return (
    <Stack direction="row" spacing={1} useFlexGap flexWrap="wrap">
      {items.map((item) => (
        <Chip key={item.id} label={`${item.name} (${item.role})`} size="small" />
      ))}
    </Stack>
  );
}

function UserLinks() {
  const record = useRecordContext();
  if (!record) return null;
  const filter = encodeURIComponent(JSON.stringify({ created_by: record.id }));
  return (
    <Labeled label="Links">
      <MuiLink component={Link} to={`/aliases?filter=${filter}`}>
        {record.links_count} link{record.links_count === 1 ? '' : 's'} they made
      </MuiLink>
    </Labeled>
  );
}

function UserShowActions() {
  return (
    <TopToolbar>
      <ImpersonateButton />
      <ResetMfaButton />
      <BanButton />
      <EditButton />
    </TopToolbar>
  );
}

/**
 * user/{userId}: profile, plan and subscription, teams and organizations, links, API tokens,
 * security.
 */
export function UserShow() {
  return (
    <Show actions={<UserShowActions />}>
      <TabbedShowLayout>
        <TabbedShowLayout.Tab label="Profile">
          <TextField source="email" />
          <TextField source="name" />
          <TextField source="id" />
          <DateField source="created_at" label="Signed up" showTime />
          <DateField
            source="email_confirmed_at"
            label="E-mail confirmed"
            showTime
            emptyText="Not confirmed"
          />
          <DateField source="last_sign_in_at" label="Last sign-in" showTime emptyText="Never" />
          <YesNoField source="is_developer" label="Staff" />
          <YesNoField source="no_affiliate" label="No affiliate" />
          <YesNoField source="no_mailings" label="Does not receive mailings" />
          <YesNoField source="hide_invoices" label="Hide invoices" />
          <Labeled label="Preview features">
            <PreviewFeatures />
          </Labeled>
        </TabbedShowLayout.Tab>
        <TabbedShowLayout.Tab label="Plan">
          <TextField source="plan" />
          <TextField source="subscription_state" label="Subscription" />
          <TextField source="subscription_interval" label="Interval" emptyText="—" />
          <DateField source="subscription_trial_ends_at" label="Trial ends" emptyText="—" />
          <DateField source="subscription_ends_at" label="Ends" emptyText="—" />
        </TabbedShowLayout.Tab>
        <TabbedShowLayout.Tab label="Billing" path="billing">
          <UserBilling />
        </TabbedShowLayout.Tab>
        <TabbedShowLayout.Tab label="Teams and organizations">
          <Memberships source="teams" label="Teams" />
          <Memberships source="organizations" label="Organizations" />
          <UserLinks />
        </TabbedShowLayout.Tab>
        <TabbedShowLayout.Tab label="API tokens">
          <UserApiTokens label="Tokens they created" />
        </TabbedShowLayout.Tab>
        <TabbedShowLayout.Tab label="Security">
          <NumberField source="mfa_factors" label="Two-factor authenticators" />
          <FunctionField
            label="Ban"
            render={(record) =>
              record.is_banned
                ? `Banned until ${new Date(record.banned_until).toLocaleString()}`
                : 'Not banned'
            }
          />
        </TabbedShowLayout.Tab>
      </TabbedShowLayout>
    </Show>
  );
}
