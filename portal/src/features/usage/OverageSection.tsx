import { Alert, Anchor, Group, Stack, Switch, Table, Text } from '@mantine/core';
import { overageAmountMinor } from '@shortlane/shared/credits.ts';
import { OVERAGE_PRICE } from '@shortlane/shared/constants.ts';
import { formatMoney, minorUnitsPerMajor } from '@shortlane/shared/plans.ts';
import { Link } from 'react-router-dom';
import { SettingsSection } from '../../components/SettingsSection.tsx';
import {
  type AccountUsage,
  type OverageCharge,
  useSetOverageMutation,
} from '../../data/account-usage-query.ts';
import { href } from '../../routes/paths.ts';

const number = new Intl.NumberFormat('en');
const day = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeZone: 'UTC' });

const STATUS: Record<OverageCharge['status'], string> = {
  pending: 'Being billed',
  reported: 'On your next invoice',
  failed: 'Billing failed: support will contact you',
};

/** The switch is on when the options that can go over have overage on (set all at once). */
function overageOn(usage: AccountUsage): boolean {
  return Object.values(usage.limits).some((option) => option.overage);
}

/**
 * Manage Overages (link-creation 4 names it): with overage on, usage past the plan's limits goes
 * on and is billed at the period's end, 2 per 100 units over, pro-rated; without it the limits
 * stop at 100 % (the plan-limit modal). Only an account with a paid plan can turn it on.
 */
export function OverageSection({ accountId, usage }: { accountId: string; usage: AccountUsage }) {
  const mutation = useSetOverageMutation(accountId);
  const on = overageOn(usage);
  const unitsOver = Object.values(usage.limits).reduce(
    (sum, option) => sum + (option.over ?? 0),
    0,
  );
  const price = formatMoney(
    OVERAGE_PRICE.amount * minorUnitsPerMajor(usage.currency),
    usage.currency,
  );
  return (
    <SettingsSection title="Manage Overages">
      <Stack gap="sm">
        <Text c="dimmed">
          With overages on, you keep shortening links, calling the API and tracking clicks past your
          plan's limits. Usage over a limit is billed at {price} per {OVERAGE_PRICE.perUnits} units,
          pro-rated, as its own line on the invoice after the period ends.
        </Text>
        {usage.overageAvailable ? (
          <Switch
            label="Allow usage past my plan's limits"
            checked={on}
            disabled={mutation.isPending}
            onChange={(event) => mutation.mutate(event.currentTarget.checked)}
          />
        ) : (
          <Text>
            Overages need a paid plan.{' '}
            <Anchor component={Link} to={href('settings.subscription')}>
              Upgrade Your Plan
            </Anchor>
          </Text>
        )}
        {mutation.isError && (
          <Alert color="red" title="Overages could not be changed">
            {mutation.error.message}
          </Alert>
        )}
        {on && (
          <Group gap="xs" aria-label="Overage this period">
            <Text fw={500}>This period:</Text>
            <Text>
              {number.format(unitsOver)} units over, about{' '}
              {formatMoney(overageAmountMinor(unitsOver, usage.currency), usage.currency)}
            </Text>
          </Group>
        )}
        {usage.charges.length > 0 && (
          <Table aria-label="Overage billed">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Period</Table.Th>
                <Table.Th>Units over</Table.Th>
                <Table.Th>Amount</Table.Th>
                <Table.Th>Status</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {usage.charges.map((charge) => (
                <Table.Tr key={charge.id}>
                  <Table.Td>
                    {day.format(new Date(charge.period_starts_at))} –{' '}
                    {day.format(new Date(charge.period_ends_at))}
                  </Table.Td>
                  <Table.Td>{number.format(charge.units)}</Table.Td>
                  <Table.Td>
                    {formatMoney(
                      charge.amount ?? overageAmountMinor(charge.units, charge.currency),
                      charge.currency,
                    )}
                  </Table.Td>
                  <Table.Td>{STATUS[charge.status]}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
    </SettingsSection>
  );
}
