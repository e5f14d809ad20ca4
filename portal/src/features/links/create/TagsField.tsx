import { Stack, TagsInput, Text, Tooltip } from '@mantine/core';
import { TAG_LENGTH } from '@shortlane/shared/constants.ts';
import { ERROR_CODES } from '@shortlane/shared/errors.ts';
import { normalizeTag } from '@shortlane/shared/validation/tags.ts';
import { READABLE } from './readable.ts';

export interface TagsFieldProps {
  value: string[];
  onChange: (tags: string[]) => void;
  /** Form errors: 'tags' for the list, 'tags.N' per tag of the list sent. */
  errors: Readonly<Record<string, string | undefined>>;
  /** The plan (or team) may not use tags: the field shows, locked, saying why. */
  locked: boolean;
  disabled?: boolean;
}

const TAG_INDEX = /^tags\.(\d+)$/;

/** The messages of the tag errors, each naming its tag, in list order. */
export function tagErrorLines(
  tags: readonly string[],
  errors: Readonly<Record<string, string | undefined>>,
): string[] {
  const lines: string[] = [];
  if (errors.tags) lines.push(errors.tags);
  const perTag = Object.entries(errors)
    .map(([field, message]) => ({ index: Number(TAG_INDEX.exec(field)?.[1] ?? NaN), message }))
    .filter((entry) => Number.isInteger(entry.index) && entry.message)
    .sort((a, b) => a.index - b.index);
  for (const { index, message } of perTag) {
    const tag = tags[index];
    lines.push(tag === undefined ? `${message}` : `“${tag}”: ${message}`);
  }
  return lines;
}

/**
 * Tags (link-creation 5): lower-cased with spaces removed as they are typed, empty ones dropped;
 * duplicates are kept so that the rule's message can say so ("The tag has already been taken.").
 */
export function TagsField({ value, onChange, errors, locked, disabled }: TagsFieldProps) {
  const lines = tagErrorLines(value, errors);
  const input = (
    <TagsInput
      label="Tags"
      description={`Press Enter or comma after each tag (${TAG_LENGTH.min} to ${TAG_LENGTH.max} characters).`}
      value={value}
      onChange={(tags) => onChange(tags.map(normalizeTag).filter((tag) => tag !== ''))}
      descriptionProps={READABLE}
      allowDuplicates
      acceptValueOnBlur
      disabled={disabled || locked}
      clearable
      error={
        lines.length > 0 ? (
          <Stack gap={0} component="span">
            {lines.map((line) => (
              <Text key={line} component="span" size="xs" inherit>
                {line}
              </Text>
            ))}
          </Stack>
        ) : undefined
      }
    />
  );
  if (!locked) return input;
  return (
    <Tooltip label={ERROR_CODES.tags_not_allowed.message} position="top-start">
      <div>{input}</div>
    </Tooltip>
  );
}
