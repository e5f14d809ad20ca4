import { BulkUpdateButton, UpdateButton } from 'react-admin';

/**
 * Staff's moderation of links: archive (out of the lists, stops redirecting), terminate for
 * abuse (the owner cannot undo it), restore (active again). Written to public.aliases, which
 * the redirect's cache hears about.
 */
export const ALIAS_STATUS_ACTIONS = [
  { label: 'Archive', status: 'archived' },
  { label: 'Terminate for abuse', status: 'terminated' },
  { label: 'Restore', status: 'active' },
] as const;

export function AliasBulkActions() {
  return (
    <>
      {ALIAS_STATUS_ACTIONS.map(({ label, status }) => (
        <BulkUpdateButton
          key={status}
          label={label}
          data={{ status }}
          mutationMode="pessimistic"
          confirmTitle={`${label}: change the selected links?`}
          confirmContent={`Their status becomes "${status}".`}
        />
      ))}
    </>
  );
}

export function AliasStatusButtons() {
  return (
    <>
      {ALIAS_STATUS_ACTIONS.map(({ label, status }) => (
        <UpdateButton key={status} label={label} data={{ status }} mutationMode="pessimistic" />
      ))}
    </>
  );
}
