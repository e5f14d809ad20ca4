import { Alert, AlertTitle, Box, TextField as MuiTextField } from '@mui/material';
import { useState } from 'react';
import {
  Create,
  DataTable,
  DateField,
  DateTimeInput,
  List,
  SearchInput,
  SimpleForm,
  TextInput,
  useNotify,
} from 'react-admin';
import { notifyFailure } from '../../components/ActionButton.tsx';
import { useKioskDataProvider } from '../../components/useKioskDataProvider.ts';

/**
 * access-invitations: early-access invitations by e-mail. The token is made by the database
 * (kiosk_create_access_invitation), stored hashed and shown here once, to send to the invitee.
 */
function InvitationList() {
  return (
    <List
      filters={[<SearchInput key="q" source="q" alwaysOn placeholder="E-mail or note" />]}
      sort={{ field: 'created_at', order: 'DESC' }}
    >
      <DataTable>
        <DataTable.Col source="email" />
        <DataTable.Col source="note" />
        <DataTable.Col source="expires_at" label="Expires">
          <DateField source="expires_at" emptyText="Never" />
        </DataTable.Col>
        <DataTable.Col source="accepted_at" label="Accepted">
          <DateField source="accepted_at" emptyText="Not yet" />
        </DataTable.Col>
        <DataTable.Col source="created_at" label="Invited" field={DateField} />
      </DataTable>
    </List>
  );
}

interface CreatedInvitation {
  id: string;
  email: string;
  token: string;
}

function InvitationCreate() {
  const dataProvider = useKioskDataProvider();
  const notify = useNotify();
  const [created, setCreated] = useState<CreatedInvitation | null>(null);

  const invite = async (values: Record<string, unknown>) => {
    try {
      const invitation = await dataProvider.rpc<CreatedInvitation>(
        'kiosk_create_access_invitation',
        {
          p_email: values.email,
          p_note: values.note ?? null,
          p_expires_at: values.expires_at ?? null,
        },
      );
      setCreated(invitation);
    } catch (error) {
      const body = (error as { body?: { message?: string; hint?: string } }).body;
      // Coded errors name their field in `hint`: show the message under it.
      if (body?.hint === 'email' || body?.hint === 'expires_at') {
        return { [body.hint]: (error as Error).message };
      }
      notifyFailure(notify, error);
    }
  };

  return (
    <Create>
      {created && (
        <Box sx={{ p: 2 }}>
          <Alert severity="success" role="status">
            <AlertTitle>Invitation created for {created.email}</AlertTitle>
            Send them this token now: it is shown only once.
            <MuiTextField
              value={created.token}
              fullWidth
              size="small"
              sx={{ mt: 1 }}
              slotProps={{ htmlInput: { readOnly: true, 'aria-label': 'Invitation token' } }}
            />
          </Alert>
        </Box>
      )}
      <SimpleForm onSubmit={invite}>
        <TextInput source="email" type="email" />
        <TextInput source="note" multiline />
        <DateTimeInput source="expires_at" label="Expires (empty: never)" />
      </SimpleForm>
    </Create>
  );
}

export default { list: InvitationList, create: InvitationCreate };
