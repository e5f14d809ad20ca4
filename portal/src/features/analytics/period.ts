import { useLocalStorage } from '@mantine/hooks';
import {
  DEFAULT_STATS_PERIOD,
  isStatsPeriod,
  STATS_PERIODS,
  STORAGE_KEYS,
  type StatsPeriod,
} from '@shortlane/shared/constants.ts';

/** The spec's stats periods (app-shell 3, 9), shortest first, with what the selector shows. */
export const PERIOD_OPTIONS: readonly { value: StatsPeriod; label: string; long: string }[] = [
  { value: 'last_1_hour', label: '1h', long: 'the last hour' },
  { value: 'last_24_hour', label: '24h', long: 'the last 24 hours' },
  { value: 'last_7_day', label: '7d', long: 'the last 7 days' },
  { value: 'last_30_day', label: '30d', long: 'the last 30 days' },
];

export function periodDescription(period: StatsPeriod): string {
  return PERIOD_OPTIONS.find((option) => option.value === period)?.long ?? period;
}

/** A stored value, as plain text: anything but a known period reads as the default. */
export function readStoredPeriod(stored: string | null | undefined): StatsPeriod {
  return isStatsPeriod(stored) ? stored : DEFAULT_STATS_PERIOD;
}

/**
 * The period to ask for: the chosen one if the plan covers it, else the longest allowed one not
 * longer than the choice, else the shortest allowed (a plan with fewer periods still shows data).
 */
export function effectivePeriod(
  chosen: StatsPeriod,
  allowed: readonly StatsPeriod[] | null,
): StatsPeriod {
  if (allowed == null || allowed.length === 0 || allowed.includes(chosen)) return chosen;
  const byLength = [...allowed].sort((a, b) => STATS_PERIODS[a] - STATS_PERIODS[b]);
  const notLonger = byLength.filter((period) => STATS_PERIODS[period] <= STATS_PERIODS[chosen]);
  return notLonger.at(-1) ?? byLength[0]!;
}

/** The chosen period as useStatsPeriod reads it, outside React (the entry's first requests). */
export function storedStatsPeriod(
  storage: Pick<Storage, 'getItem'> = window.localStorage,
): StatsPeriod {
  try {
    return readStoredPeriod(storage.getItem(STORAGE_KEYS.statsPeriod));
  } catch {
    // Storage refused (a locked-down browser): the hook falls back to the default too.
    return DEFAULT_STATS_PERIOD;
  }
}

/**
 * The stats period, default 24 hours, persisted in local storage (app-shell 9) and shared by
 * every analytics view and tab.
 */
export function useStatsPeriod(): [StatsPeriod, (period: StatsPeriod) => void] {
  const [period, setPeriod] = useLocalStorage<StatsPeriod>({
    key: STORAGE_KEYS.statsPeriod,
    defaultValue: DEFAULT_STATS_PERIOD,
    getInitialValueInEffect: false,
    // Plain text in storage: the period's name is the value.
    serialize: (value) => value,
    deserialize: (value) => readStoredPeriod(value),
  });
  return [period, setPeriod];
}
