import {
  DateField,
  NumberField,
  ReferenceField,
  Show,
  SimpleShowLayout,
  TextField,
  TopToolbar,
  UrlField,
} from 'react-admin';
import { BooleanChip } from '../../components/BooleanChip.tsx';
import { StatusChip } from '../../components/StatusChip.tsx';
import { AliasClicksChart } from './AliasClicksChart.tsx';
import { AliasStatusButtons } from './statusActions.tsx';
import { YesNoField } from '../../components/YesNoField.tsx';

/** alias/{domain}/{alias}: the link, its destination and owner, its clicks; moderation. */
export function AliasShow() {
  return (
    <Show
      actions={
        <TopToolbar>
          <AliasStatusButtons />
        </TopToolbar>
      }
    >
      <SimpleShowLayout>
        <TextField source="alias" />
        <TextField source="domain" />
        <StatusChip source="status" label="Status" />
        <UrlField source="url" label="Destination" target="_blank" rel="noreferrer" />
        <ReferenceField source="long_url_id" reference="long-urls" label="Long URL" link="show">
          <TextField source="status" />
        </ReferenceField>
        <BooleanChip
          source="host_banned"
          text="destination domain banned"
          color="error"
          label="Banned"
        />
        <ReferenceField
          source="created_by"
          reference="users"
          label="Created by"
          link="show"
          emptyText="guest"
        >
          <TextField source="email" />
        </ReferenceField>
        <TextField source="account_name" label="Workspace" emptyText="guest" />
        <TextField source="description" emptyText="—" />
        <YesNoField source="is_main" label="Main alias" />
        <DateField source="expires_at" label="Expires" showTime emptyText="Never" />
        <DateField source="created_at" label="Created" showTime />
        <NumberField source="clicks" label="Clicks (all time)" />
        <AliasClicksChart />
      </SimpleShowLayout>
    </Show>
  );
}
