import { Alert, Anchor, Button, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { PageLoader } from '../../components/PageLoader.tsx';
import { SettingsSection } from '../../components/SettingsSection.tsx';
import { useProfileQuery } from '../../data/profile-query.ts';
import { useConfig } from '../../lib/servicesContext.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { href } from '../../routes/paths.ts';
import { EmailForm } from './EmailForm.tsx';
import { NameForm } from './NameForm.tsx';
import { PhotoForm } from './PhotoForm.tsx';
import { useAuthMessageNotice } from './useAuthMessageNotice.ts';

const Section = SettingsSection;

/** settings/profile: photo, name, e-mail address, and the way to delete the account. */
export default function ProfilePage() {
  const { productName } = useConfig();
  usePageTitle('Profile', productName);
  const profile = useProfileQuery();
  useAuthMessageNotice();

  return (
    <Stack gap="lg">
      <Title order={1}>Profile</Title>
      {profile.isPending ? (
        <PageLoader />
      ) : profile.isError ? (
        <Alert color="red" title="Your profile could not be loaded">
          <Button variant="light" size="xs" mt="xs" onClick={() => void profile.refetch()}>
            Try again
          </Button>
        </Alert>
      ) : (
        <>
          <Section title="Photo">
            <PhotoForm
              userId={profile.data.id}
              name={profile.data.name}
              photoUrl={profile.data.photo_url}
            />
          </Section>
          <Section title="Name">
            <NameForm key={profile.data.name} userId={profile.data.id} name={profile.data.name} />
          </Section>
          <Section title="E-mail address">
            <EmailForm userId={profile.data.id} />
          </Section>
          <Section title="Delete account">
            <Text mb="sm">
              Deleting your account removes your links, their statistics and your settings for good.
            </Text>
            <Anchor component={Link} to={href('settings.profile.delete')} c="red.8">
              Delete my account
            </Anchor>
          </Section>
        </>
      )}
    </Stack>
  );
}
