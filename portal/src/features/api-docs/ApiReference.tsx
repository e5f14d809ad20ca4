import {
  Anchor,
  Badge,
  Code,
  Group,
  Paper,
  PasswordInput,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { href } from '../../routes/paths.ts';
import {
  fieldsOf,
  jsonSchemaOf,
  operationsOf,
  refName,
  typeText,
  type Field,
  type OpenApiDocument,
  type OperationView,
} from './openApiView.ts';
import { TryIt, type TryItTarget } from './TryIt.tsx';

const METHOD_COLORS: Record<string, string> = {
  GET: 'blue',
  POST: 'green',
  PATCH: 'orange',
  DELETE: 'red',
};

function FieldTable({ fields, caption }: { fields: Field[]; caption: string }) {
  if (fields.length === 0) return null;
  return (
    <Table withTableBorder striped captionSide="top" aria-label={caption}>
      <Table.Caption>{caption}</Table.Caption>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Name</Table.Th>
          <Table.Th>Type</Table.Th>
          <Table.Th>Description</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {fields.map((field) => (
          <Table.Tr key={field.name}>
            <Table.Td>
              <Code>{field.name}</Code>
              {field.required && (
                <Text span c="red" size="xs" ml={4}>
                  required
                </Text>
              )}
            </Table.Td>
            <Table.Td>
              <Text size="sm">{field.type}</Text>
            </Table.Td>
            <Table.Td>
              <Text size="sm">
                {field.description}
                {field.defaultValue !== undefined && ` Default ${field.defaultValue}.`}
              </Text>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function Operation({
  document,
  view,
  tryIt,
}: {
  document: OpenApiDocument;
  view: OperationView;
  tryIt?: { target: TryItTarget; token: string };
}) {
  const { operation } = view;
  const parameters: Field[] = (operation.parameters ?? []).map((parameter) => ({
    name: parameter.name,
    type: `${parameter.schema ? typeText(parameter.schema) : 'string'} · ${parameter.in}`,
    required: parameter.required ?? false,
    description: parameter.description,
    defaultValue:
      parameter.schema?.default === undefined
        ? undefined
        : JSON.stringify(parameter.schema.default),
  }));
  const body = jsonSchemaOf(operation.requestBody);
  return (
    <Stack component="section" id={view.id} gap="sm" aria-labelledby={`${view.id}-title`}>
      <Group gap="sm">
        <Badge color={METHOD_COLORS[view.method] ?? 'gray'} variant="light">
          {view.method}
        </Badge>
        <Code>{view.path}</Code>
      </Group>
      <Title order={3} id={`${view.id}-title`}>
        {operation.summary}
      </Title>
      {operation.description && <Text size="sm">{operation.description}</Text>}
      <FieldTable fields={parameters} caption="Parameters" />
      {body && (
        <FieldTable
          fields={fieldsOf(document, body)}
          caption={`Body (${body.$ref ? refName(body.$ref) : 'JSON'})`}
        />
      )}
      <Table withTableBorder aria-label="Responses">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Status</Table.Th>
            <Table.Th>Meaning</Table.Th>
            <Table.Th>Body</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {Object.entries(operation.responses ?? {}).map(([status, response]) => {
            const schema = jsonSchemaOf(response);
            const other = Object.keys(response.content ?? {}).find(
              (type) => type !== 'application/json',
            );
            return (
              <Table.Tr key={status}>
                <Table.Td>{status}</Table.Td>
                <Table.Td>{response.description}</Table.Td>
                <Table.Td>
                  {schema?.$ref ? (
                    <Anchor href={`#schema-${refName(schema.$ref)}`}>{refName(schema.$ref)}</Anchor>
                  ) : (
                    (other ?? '')
                  )}
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
      {tryIt && <TryIt document={document} view={view} target={tryIt.target} token={tryIt.token} />}
    </Stack>
  );
}

/** Where "Try it" sends requests, and with which of the reader's tokens. */
function TokenBar({
  serverUrl,
  token,
  onToken,
}: {
  serverUrl: string;
  token: string;
  onToken: (token: string) => void;
}) {
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="try-it-title">
      <Stack gap="xs">
        <Title order={2} size="h4" id="try-it-title">
          Try it with your token
        </Title>
        <Text size="sm">
          Requests go to <Code>{serverUrl}</Code> and spend your API credits. Create a token in{' '}
          <Anchor component={Link} to={href('settings.api')}>
            Settings → API
          </Anchor>
          ; it stays in this page only.
        </Text>
        <PasswordInput
          label="API token"
          placeholder="slt_…"
          autoComplete="off"
          value={token}
          onChange={(event) => onToken(event.currentTarget.value)}
          maw={520}
        />
      </Stack>
    </Paper>
  );
}

/**
 * The API reference rendered from an OpenAPI 3.1 document; with `tryIt`, each operation can be
 * sent to the API with the reader's own token.
 */
export function ApiReference({
  document,
  tryIt,
}: {
  document: OpenApiDocument;
  tryIt?: TryItTarget;
}) {
  const operations = operationsOf(document);
  const [token, setToken] = useState('');
  const schemas = Object.keys(document.components?.schemas ?? {});
  return (
    <Stack gap="xl">
      <Stack gap="xs">
        <Title order={1}>{document.info.title}</Title>
        <Text c="dimmed" size="sm">
          Version {document.info.version} · OpenAPI {document.openapi} ·{' '}
          <Anchor href={`${tryIt?.serverUrl ?? document.servers?.[0]?.url ?? ''}/openapi.json`}>
            openapi.json
          </Anchor>
        </Text>
        {document.info.description && <Text>{document.info.description}</Text>}
      </Stack>
      {tryIt && <TokenBar serverUrl={tryIt.serverUrl} token={token} onToken={setToken} />}
      <nav aria-label="Operations">
        <Stack gap={4}>
          {operations.map((view) => (
            <Anchor key={view.id} href={`#${view.id}`} size="sm">
              {view.method} {view.path} — {view.operation.summary}
            </Anchor>
          ))}
        </Stack>
      </nav>
      {operations.map((view) => (
        <Operation
          key={view.id}
          document={document}
          view={view}
          tryIt={tryIt && { target: tryIt, token }}
        />
      ))}
      <Stack component="section" gap="sm" aria-labelledby="errors-title">
        <Title order={2} id="errors-title">
          Errors
        </Title>
        <Text size="sm">
          Every refusal is <Code>{'{ "error": { "code", "message", "doc_url" } }'}</Code>; a 422
          adds <Code>fields</Code>, the messages per field.
        </Text>
        <Table withTableBorder aria-label="Error codes">
          <Table.Tbody>
            {(document['x-error-codes'] ?? []).map((error) => (
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
      <Stack component="section" gap="md" aria-labelledby="schemas-title">
        <Title order={2} id="schemas-title">
          Schemas
        </Title>
        {schemas.map((name) => (
          <div key={name} id={`schema-${name}`}>
            <FieldTable
              fields={fieldsOf(document, { $ref: `#/components/schemas/${name}` })}
              caption={name}
            />
          </div>
        ))}
      </Stack>
    </Stack>
  );
}
