import {
  Alert,
  Button,
  Code,
  Group,
  Paper,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useId, useState, type FormEvent } from 'react';
import type { OpenApiDocument, OperationView } from './openApiView.ts';
import { jsonSchemaOf } from './openApiView.ts';
import { buildRequest, exampleBody, readAnswer, type TryItAnswer } from './tryIt.ts';

export interface TryItTarget {
  /** The API's base URL (this project's gateway). */
  serverUrl: string;
  /** The network, straight: not the portal's handled fetch (a 401 here is the token's, not the session's). */
  send: typeof fetch;
}

/** One operation's "Try it": its parameters, its body, Send, and the answer. */
export function TryIt({
  document,
  view,
  target,
  token,
}: {
  document: OpenApiDocument;
  view: OperationView;
  target: TryItTarget;
  token: string;
}) {
  const panelId = useId();
  const [open, setOpen] = useState(false);
  const bodySchema = jsonSchemaOf(view.operation.requestBody);
  const [values, setValues] = useState<Record<string, string>>({});
  const [body, setBody] = useState(() =>
    bodySchema ? JSON.stringify(exampleBody(document, bodySchema), null, 2) : null,
  );
  const [problem, setProblem] = useState<string | null>(null);
  const [answer, setAnswer] = useState<TryItAnswer | null>(null);
  const [busy, setBusy] = useState(false);

  const send = async (event: FormEvent) => {
    event.preventDefault();
    const request = buildRequest(view, target.serverUrl, { token, values, body });
    setAnswer(null);
    if (!request.ok) {
      setProblem(request.problem);
      return;
    }
    setProblem(null);
    setBusy(true);
    try {
      setAnswer(await readAnswer(await target.send(request.url, request.init)));
    } catch {
      setProblem(`The request did not reach ${target.serverUrl}.`);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack gap="xs">
      <Group>
        <Button
          variant="light"
          size="xs"
          aria-expanded={open}
          aria-controls={open ? panelId : undefined}
          onClick={() => setOpen((current) => !current)}
        >
          {open ? 'Hide Try it' : 'Try it'}
        </Button>
      </Group>
      {/* Built when opened: eleven operations' forms at once weigh on the page for nothing. */}
      {open && (
        <Paper
          withBorder
          p="md"
          id={panelId}
          component="form"
          onSubmit={send}
          noValidate
          aria-label={`Try ${view.operation.summary ?? view.id}`}
        >
          <Stack gap="sm">
            {(view.operation.parameters ?? []).map((parameter) => (
              <TextInput
                key={`${parameter.in}-${parameter.name}`}
                label={parameter.name}
                description={`${parameter.in}${parameter.description ? ` · ${parameter.description}` : ''}`}
                required={parameter.required ?? false}
                value={values[parameter.name] ?? ''}
                onChange={(event) => {
                  const value = event.currentTarget.value;
                  setValues((current) => ({ ...current, [parameter.name]: value }));
                }}
              />
            ))}
            {body !== null && (
              <Textarea
                label="Request body (JSON)"
                autosize
                minRows={3}
                styles={{ input: { fontFamily: 'monospace' } }}
                value={body}
                onChange={(event) => setBody(event.currentTarget.value)}
              />
            )}
            <Group>
              <Button type="submit" size="xs" loading={busy}>
                Send request
              </Button>
              <Text size="xs" c="dimmed">
                {view.method} {target.serverUrl}
                {view.path}
              </Text>
            </Group>
            {problem && (
              <Alert color="red" role="alert">
                {problem}
              </Alert>
            )}
            <div role="status" aria-live="polite">
              {answer && <Answer answer={answer} />}
            </div>
          </Stack>
        </Paper>
      )}
    </Stack>
  );
}

function Answer({ answer }: { answer: TryItAnswer }) {
  return (
    <Stack gap="xs" aria-label="Response">
      <Text fw={600}>
        Response: {answer.status} {answer.statusText}
      </Text>
      {answer.headers.length > 0 && (
        <Table withTableBorder aria-label="Response headers">
          <Table.Tbody>
            {answer.headers.map(([name, value]) => (
              <Table.Tr key={name}>
                <Table.Th scope="row">
                  <Code>{name}</Code>
                </Table.Th>
                <Table.Td>{value}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {answer.body !== '' && (
        <Code block aria-label="Response body" style={{ maxHeight: 360, overflow: 'auto' }}>
          {answer.body}
        </Code>
      )}
    </Stack>
  );
}
