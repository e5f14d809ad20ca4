import { Alert, TextInput } from '@mantine/core';
import { READABLE } from '../links/create/readable.ts';
import type { ProfileErrors } from './organizationProfile.ts';

/**
 * An organization's name and slug with their errors (and the request's own, above them): the
 * create form and the profile page show the same fields under the same rules.
 */
export function OrganizationNameFields({
  name,
  slug,
  errors,
  readOnly = false,
  onName,
  onSlug,
}: {
  name: string;
  slug: string;
  errors: ProfileErrors;
  readOnly?: boolean;
  onName: (name: string) => void;
  onSlug: (slug: string) => void;
}) {
  return (
    <>
      {errors.form && (
        <Alert color="red" role="alert">
          {errors.form}
        </Alert>
      )}
      <TextInput
        label="Name"
        value={name}
        error={errors.name}
        readOnly={readOnly}
        maxLength={255}
        onChange={(event) => onName(event.currentTarget.value)}
      />
      <TextInput
        label="Slug"
        description="Lower-case letters, numbers and dashes; it is part of the organization's addresses."
        descriptionProps={READABLE}
        value={slug}
        error={errors.slug}
        readOnly={readOnly}
        maxLength={64}
        onChange={(event) => onSlug(event.currentTarget.value)}
      />
    </>
  );
}
