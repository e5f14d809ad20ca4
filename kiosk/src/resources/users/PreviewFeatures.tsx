import { FormControlLabel, Switch } from '@mui/material';
import { type Identifier, useGetOne, useNotify, useRecordContext, useUpdate } from 'react-admin';
import { notifyFailure } from '../../components/ActionButton.tsx';

/** The preview switches staff turn on per user ahead of a rollout (profiles.preview_features). */
export const PREVIEW_FEATURES = [
  { id: 'organizations', label: 'Organizations (the organization pages)' },
] as const;

export const withFeature = (current: readonly string[], feature: string, on: boolean) =>
  on ? [...new Set([...current, feature])] : current.filter((name) => name !== feature);

/**
 * A switch per preview feature on the user page. Only staff may change the column (a trigger
 * refuses anyone else) and each change lands in the kiosk audit log (another trigger).
 */
export function PreviewFeatures({ label: _label }: { label?: string }) {
  const record = useRecordContext();
  const notify = useNotify();
  const profile = useGetOne<{ id: Identifier; preview_features: string[] }>(
    'profiles',
    { id: record?.id },
    { enabled: record?.id != null },
  );
  const [update, { isPending }] = useUpdate();
  if (!record || !profile.data) return null;
  const current = profile.data.preview_features ?? [];
  return (
    <>
      {PREVIEW_FEATURES.map((feature) => (
        <FormControlLabel
          key={feature.id}
          label={feature.label}
          control={
            <Switch
              checked={current.includes(feature.id)}
              disabled={isPending || profile.isFetching}
              onChange={(event) =>
                void update(
                  'profiles',
                  {
                    id: record.id,
                    data: {
                      preview_features: withFeature(current, feature.id, event.target.checked),
                    },
                    previousData: profile.data,
                  },
                  {
                    mutationMode: 'pessimistic',
                    onSuccess: () => {
                      void profile.refetch();
                      notify('kiosk.users.preview_changed', { type: 'success' });
                    },
                    onError: (error) => notifyFailure(notify, error),
                  },
                )
              }
            />
          }
        />
      ))}
    </>
  );
}
