import { Group, Select, Stack, Text } from '@mantine/core';
import type { DomainChoice } from '@shortlane/shared/domains.ts';
import { AddDomainButton } from '../../branded-domains/AddDomainButton.tsx';
import { messageText } from './messageKeys.ts';

export interface DomainSelectProps {
  choices: readonly DomainChoice[];
  value: string;
  onChange: (domain: string) => void;
  error?: string;
  disabled?: boolean;
}

/**
 * The domain choice (link-creation 5): the visible domains sorted by name; a locked one stays
 * listed, disabled, with the reason beside it (the spec's tooltip: 'This domain is not available
 * to guest users.', e-mail verification, subscription). Below it, "Add Domain" with the spec's
 * gates (guests to register, unverified users to verify, non-subscribers to billing).
 */
export function DomainSelect({ choices, value, onChange, error, disabled }: DomainSelectProps) {
  const reasons = new Map(
    choices.flatMap((choice) =>
      choice.tooltip ? [[choice.option.domain, messageText(choice.tooltip)] as const] : [],
    ),
  );
  const data = choices.map((choice) => ({
    value: choice.option.domain,
    label: choice.option.domain,
    disabled: !choice.selectable,
  }));
  // A fallback domain (the current host, 'domain not found') is not among the choices.
  if (value !== '' && !data.some((item) => item.value === value)) {
    data.push({ value, label: value, disabled: true });
  }
  return (
    <Stack gap={4}>
      <Select
        label="Domain"
        data={data}
        value={value === '' ? null : value}
        onChange={(domain) => domain != null && onChange(domain)}
        allowDeselect={false}
        error={error}
        disabled={disabled}
        comboboxProps={{ withinPortal: true }}
        renderOption={({ option }) => {
          const reason = reasons.get(option.value);
          return (
            <Group gap="xs" wrap="nowrap" title={reason}>
              <Text size="sm">{option.label}</Text>
              {reason ? (
                <Text size="xs" c="gray.7">
                  — {reason}
                </Text>
              ) : null}
            </Group>
          );
        }}
      />
      <AddDomainButton variant="subtle" size="compact-xs" w="fit-content" />
    </Stack>
  );
}
