import { Accordion, Anchor, Container, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDeferredValue, useState } from 'react';
import { Link } from 'react-router-dom';
import { useConfig } from '../../lib/servicesContext.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { paths } from '../../routes/paths.ts';
import { HELP_TOPICS, searchHelp } from './helpTopics.ts';

/** /app/help: answers to the common questions, searchable, each leading to where it is done. */
export default function HelpPage() {
  const { productName } = useConfig();
  usePageTitle('Help', productName);
  const [query, setQuery] = useState('');
  const topics = searchHelp(HELP_TOPICS, useDeferredValue(query));
  const found = topics.reduce((count, topic) => count + topic.questions.length, 0);

  return (
    <Container size="md" py="xl">
      <Title order={1}>Help</Title>
      <Text mt="sm" c="dimmed">
        Answers about short links, domains, analytics, the API, plans and your account.
      </Text>
      <TextInput
        mt="lg"
        type="search"
        label="Search the answers"
        placeholder="e.g. domain, invoice, two-factor"
        value={query}
        onChange={(event) => setQuery(event.currentTarget.value)}
      />
      <Text size="sm" mt="xs" role="status" aria-live="polite">
        {query.trim() === '' ? '' : found === 1 ? '1 answer matches.' : `${found} answers match.`}
      </Text>
      {topics.length === 0 ? (
        <Text mt="lg">
          No answer matches “{query.trim()}”. Try other words, or{' '}
          <Anchor component={Link} to={paths['pricing.quote']}>
            write to us
          </Anchor>
          .
        </Text>
      ) : (
        <Stack gap="xl" mt="lg">
          {topics.map((topic) => (
            <section key={topic.title} aria-labelledby={`help-${slug(topic.title)}`}>
              <Title order={2} size="h3" id={`help-${slug(topic.title)}`} mb="xs">
                {topic.title}
              </Title>
              <Accordion variant="separated" multiple>
                {topic.questions.map((item) => (
                  <Accordion.Item key={item.question} value={item.question}>
                    <Accordion.Control>{item.question}</Accordion.Control>
                    <Accordion.Panel>
                      <Text>{item.answer}</Text>
                      {item.link && (
                        <Anchor
                          component={Link}
                          to={paths[item.link.route]}
                          mt="xs"
                          display="block"
                        >
                          {item.link.label}
                        </Anchor>
                      )}
                    </Accordion.Panel>
                  </Accordion.Item>
                ))}
              </Accordion>
            </section>
          ))}
        </Stack>
      )}
    </Container>
  );
}

const slug = (title: string) => title.toLowerCase().replace(/[^a-z0-9]+/g, '-');
