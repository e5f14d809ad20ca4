import { BooleanInput, Edit, SimpleForm, TextInput } from 'react-admin';
import { profileChanges, STATUS_TOGGLES } from './statusFlags.ts';

/** The profile columns staff may change, the three status bits as toggles. */
export function UserEdit() {
  return (
    <Edit mutationMode="pessimistic" transform={profileChanges}>
      <SimpleForm>
        <TextInput source="email" disabled helperText="Users change their e-mail themselves." />
        <TextInput source="name" />
        {STATUS_TOGGLES.map(({ source, label }) => (
          <BooleanInput key={source} source={source} label={label} />
        ))}
        <BooleanInput source="is_survey_enabled" label="Shown the onboarding survey" />
        <BooleanInput source="is_developer" label="Staff (opens the kiosk)" />
      </SimpleForm>
    </Edit>
  );
}
