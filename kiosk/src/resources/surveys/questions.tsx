import { BooleanInput, Create, NumberInput, SelectInput, SimpleForm, TextInput } from 'react-admin';

/**
 * A survey question, added from the survey's page (its id comes in the create state). Choices
 * are typed one a line; a text question has none.
 */
const KINDS = [
  { id: 'single', name: 'One choice' },
  { id: 'multiple', name: 'Several choices' },
  { id: 'text', name: 'Free text' },
];

export function questionChanges(values: Record<string, unknown>): Record<string, unknown> {
  const choices =
    values.kind === 'text'
      ? []
      : String(values.choices_text ?? '')
          .split('\n')
          .map((choice) => choice.trim())
          .filter(Boolean);
  return {
    survey_id: values.survey_id,
    position: Number(values.position ?? 0),
    prompt: String(values.prompt ?? '').trim(),
    kind: values.kind,
    choices,
    required: values.required === true,
  };
}

function QuestionCreate() {
  return (
    <Create
      transform={questionChanges}
      redirect={(_resource, _id, data) => `surveys/${data?.survey_id}/show`}
    >
      <SimpleForm>
        <TextInput
          source="prompt"
          multiline
          validate={(v: string) => (v?.trim() ? undefined : 'Enter the question.')}
        />
        <SelectInput source="kind" choices={KINDS} />
        <TextInput source="choices_text" label="Choices, one a line" multiline minRows={3} />
        <NumberInput source="position" label="Position (0 first)" defaultValue={0} />
        <BooleanInput source="required" />
      </SimpleForm>
    </Create>
  );
}

export default { create: QuestionCreate };
