import { Alert, Container, Stack, Text, Title } from '@mantine/core';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { useCurrentRouteName } from '../../routes/currentRoute.ts';
import { LEGAL_DOCUMENTS } from './legalDocuments.ts';

/** A legal page (terms, policies, agreements), chosen by the route it is shown for. */
export default function LegalPage() {
  const route = useCurrentRouteName();
  const document = LEGAL_DOCUMENTS[route];
  if (!document) throw new Error(`No legal document for the route ${route}.`);
  usePageTitle(document.title);
  return (
    <Container size="md" py="xl" component="article">
      <Title order={1}>{document.title}</Title>
      <Text size="sm" c="gray.7" mt="xs">
        Last updated {document.updated}
      </Text>
      <Alert color="yellow" mt="lg" title="Placeholder text">
        This page holds sample wording so the product can be tried out. It has not been reviewed by
        a lawyer and is not a binding agreement; it will be replaced before launch.
      </Alert>
      <Stack gap="lg" mt="lg">
        {document.sections.map((section) => (
          <section key={section.heading}>
            <Title order={2} size="h4">
              {section.heading}
            </Title>
            {section.paragraphs.map((paragraph) => (
              <Text key={paragraph} mt="xs">
                {paragraph}
              </Text>
            ))}
          </section>
        ))}
      </Stack>
    </Container>
  );
}
