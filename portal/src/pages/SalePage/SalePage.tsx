import { Alert, Button, Container, Table, Text, Title } from '@mantine/core';
import {
  BLACK_FRIDAY_2024_COUPON,
  salePhaseAt,
  saleSpan,
} from '@shortlane/shared/sale-calendar.ts';
import { Link } from 'react-router-dom';
import { SALE_PRICING_PATH } from '../../features/promotions/salePricingPath.ts';
import { SALE_PHASE_NAMES as PHASE_NAMES } from '../../features/promotions/salePhases.ts';
import { useConfig } from '../../lib/servicesContext.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { useCurrentRouteName } from '../../routes/currentRoute.ts';
import { paths } from '../../routes/paths.ts';

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/**
 * The Black Friday and Cyber Monday 2024 landing pages, on the configured sale calendar; during
 * the sale they lead to the yearly plans with the sale coupon, which checkout applies.
 */
export default function SalePage() {
  const isCyberMonday = useCurrentRouteName() === 'cm2023';
  const title = isCyberMonday ? 'Cyber Monday 2024' : 'Black Friday 2024';
  usePageTitle(title);
  const calendar = useConfig().saleCalendar;
  const now = new Date();
  const phase = salePhaseAt(now, calendar);
  const { startsAt: saleStart, endsAt: saleEnd } = saleSpan(calendar);

  return (
    <Container size="md" py="xl">
      <Title order={1}>{title}</Title>
      <Text size="lg" mt="sm">
        {isCyberMonday
          ? 'One day only: the best price of the year on yearly plans.'
          : 'Our biggest discount of the year on every yearly plan.'}
      </Text>
      {phase ? (
        <Alert color="teal" mt="lg" title={`Now on: ${PHASE_NAMES[phase]}`}>
          Use the code <strong>{BLACK_FRIDAY_2024_COUPON}</strong> when you choose a yearly plan.
        </Alert>
      ) : (
        <Alert color="gray" mt="lg" title={now < saleStart ? 'Coming soon' : 'This sale has ended'}>
          {now < saleStart
            ? `The sale starts on ${dateTime.format(saleStart)}.`
            : `It ended on ${dateTime.format(saleEnd)}. Our regular plans are still a bargain.`}
        </Alert>
      )}
      <Table mt="xl" striped>
        <Table.Caption>The sale calendar, in your local time</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Phase</Table.Th>
            <Table.Th scope="col">Starts</Table.Th>
            <Table.Th scope="col">Ends</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {calendar.map((window) => (
            <Table.Tr key={window.phase} aria-current={window.phase === phase ? 'true' : undefined}>
              <Table.Th scope="row">{PHASE_NAMES[window.phase]}</Table.Th>
              <Table.Td>{dateTime.format(window.startsAt)}</Table.Td>
              <Table.Td>{dateTime.format(window.endsAt)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Button component={Link} to={phase ? SALE_PRICING_PATH : paths['signup.pricing']} mt="xl">
        See yearly plans
      </Button>
    </Container>
  );
}
