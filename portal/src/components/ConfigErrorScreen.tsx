import { Alert, Code, Container, List, Text, Title } from '@mantine/core';

/** What a developer sees when the app was started without its Supabase settings. */
export function ConfigErrorScreen({ app, problems }: { app: string; problems: string[] }) {
  return (
    <Container size="sm" py="xl" component="main">
      <Title order={1} mb="md">
        {app} cannot start
      </Title>
      <Alert color="red" title="Configuration is incomplete" role="alert">
        <List>
          {problems.map((problem) => (
            <List.Item key={problem}>{problem}</List.Item>
          ))}
        </List>
      </Alert>
      <Text mt="md">
        Set them in the environment or in a <Code>.env</Code> file beside{' '}
        <Code>vite.config.ts</Code>; <Code>npm start</Code> sets them for the local stack.
      </Text>
    </Container>
  );
}
