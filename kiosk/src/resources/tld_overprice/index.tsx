import {
  BooleanInput,
  Create,
  DataTable,
  Edit,
  FunctionField,
  List,
  NumberInput,
  SearchInput,
  SimpleForm,
  TextInput,
  useRecordContext,
} from 'react-admin';
import { formatMoney } from '../../components/money.ts';
import { YesNoField } from '../../components/YesNoField.tsx';

/**
 * tld_overprice: what a domain extension costs us (cost) and what we add (overprice), in minor
 * units per year; the cart charges the sum (price_amount, computed by the database).
 */
function Money({ source }: { source: string; label?: string }) {
  const record = useRecordContext();
  if (!record) return null;
  return <span>{formatMoney(record[source], record.currency)}</span>;
}

function TldList() {
  return (
    <List
      filters={[<SearchInput key="q" source="q" alwaysOn placeholder="Extension" />]}
      sort={{ field: 'tld', order: 'ASC' }}
    >
      <DataTable rowClick="edit" bulkActionButtons={false}>
        <DataTable.Col source="tld" label="Extension" render={(record) => `.${record.tld}`} />
        <DataTable.Col source="cost_amount" label="Cost">
          <Money source="cost_amount" />
        </DataTable.Col>
        <DataTable.Col source="overprice_amount" label="Overprice">
          <Money source="overprice_amount" />
        </DataTable.Col>
        <DataTable.Col source="price_amount" label="Price">
          <Money source="price_amount" />
        </DataTable.Col>
        <DataTable.Col source="active" field={YesNoField} />
      </DataTable>
    </List>
  );
}

const minorUnits = (value: number | null) =>
  value === null || value === undefined || (Number.isInteger(value) && value >= 0)
    ? undefined
    : 'Enter a whole number of minor units (cents), 0 or more.';

function TldEdit() {
  return (
    <Edit mutationMode="pessimistic" redirect="list">
      <SimpleForm>
        <FunctionField label="Extension" render={(record) => `.${record.tld}`} />
        <NumberInput source="cost_amount" label="Cost (minor units a year)" validate={minorUnits} />
        <NumberInput
          source="overprice_amount"
          label="Overprice (minor units a year)"
          validate={minorUnits}
        />
        <BooleanInput source="active" label="Sold" />
      </SimpleForm>
    </Edit>
  );
}

const TLD = /^[a-z0-9-]+(\.[a-z0-9-]+)*$/;

function TldCreate() {
  return (
    <Create redirect="list">
      <SimpleForm defaultValues={{ currency: 'USD', overprice_amount: 0, active: true }}>
        <TextInput
          source="tld"
          label="Extension (without the dot)"
          parse={(value: string) => value.trim().toLowerCase().replace(/^\./, '')}
          validate={(value: string) =>
            TLD.test(value ?? '') ? undefined : 'Enter an extension such as com or co.uk.'
          }
        />
        <TextInput source="currency" />
        <NumberInput source="cost_amount" label="Cost (minor units a year)" validate={minorUnits} />
        <NumberInput
          source="overprice_amount"
          label="Overprice (minor units a year)"
          validate={minorUnits}
        />
        <BooleanInput source="active" label="Sold" />
      </SimpleForm>
    </Create>
  );
}

export default { list: TldList, edit: TldEdit, create: TldCreate };
