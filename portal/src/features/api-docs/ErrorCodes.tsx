import { Code, Stack, Table, Text, Title } from '@mantine/core';
import type { ErrorCode } from './apiDocument.ts';

/**
 * The error catalogue, one row per code: every error body's `doc_url` is
 * `/app/dev#error-<code>` (supabase/functions/api/errors.ts), so each row carries that id.
 */
export function ErrorCodes({ codes }: { codes: readonly ErrorCode[] }) {
  return (
    <Stack component="section" gap="sm" aria-labelledby="errors-title">
      <Title order={2} id="errors-title">
        Errors
      </Title>
      <Text size="sm">
        Every refusal is <Code>{'{ "error": { "code", "message", "doc_url" } }'}</Code>; a 422 adds{' '}
        <Code>fields</Code>, the messages per field.
      </Text>
      <Table withTableBorder aria-label="Error codes">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Code</Table.Th>
            <Table.Th>HTTP status</Table.Th>
            <Table.Th>Meaning</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {codes.map((error) => (
            <Table.Tr key={error.code} id={`error-${error.code}`}>
              <Table.Td>
                <Code>{error.code}</Code>
              </Table.Td>
              <Table.Td>{error.status}</Table.Td>
              <Table.Td>{error.meaning}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}
