import { Badge } from '@mantine/core';

const COLORS = { pending: 'yellow', verified: 'teal', failed: 'red' } as const;
const LABELS = { pending: 'Pending', verified: 'Verified', failed: 'Failed' } as const;

/** A domain's verification state, in words (the colour only repeats it). */
export function DomainStateBadge({ status }: { status: string }) {
  const known = status === 'pending' || status === 'verified' || status === 'failed';
  return (
    <Badge color={known ? COLORS[status] : 'gray'} variant="light">
      {known ? LABELS[status] : status}
    </Badge>
  );
}
