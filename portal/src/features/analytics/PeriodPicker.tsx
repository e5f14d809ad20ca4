import { SegmentedControl } from '@mantine/core';
import { isStatsPeriod, type StatsPeriod } from '@shortlane/shared/constants.ts';
import { PERIOD_OPTIONS } from './period.ts';

/**
 * The stats period selector (1h / 24h / 7d / 30d). Periods the plan does not cover are shown
 * but disabled, so people see what an upgrade would add.
 */
export function PeriodPicker({
  value,
  onChange,
  allowed,
}: {
  value: StatsPeriod;
  onChange: (period: StatsPeriod) => void;
  /** null: every period. */
  allowed?: readonly StatsPeriod[] | null;
}) {
  return (
    <SegmentedControl
      aria-label="Period"
      value={value}
      onChange={(next) => {
        if (isStatsPeriod(next)) onChange(next);
      }}
      data={PERIOD_OPTIONS.map((option) => ({
        value: option.value,
        label: option.label,
        disabled: allowed != null && !allowed.includes(option.value),
      }))}
    />
  );
}
