import { lazy, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { LazyOnFirstUse } from '../../components/LazyOnFirstUse.tsx';
import {
  type OrganizationSummary,
  useMyOrganizationsQuery,
} from '../../data/organizations-query.ts';
import { href } from '../../routes/paths.ts';

// Asked only when an archived organization is picked: its code comes then.
const RestoreOrganizationModal = lazy(() =>
  import('./RestoreOrganizationModal.tsx').then((module) => ({
    default: module.RestoreOrganizationModal,
  })),
);

/**
 * The organizations a menu offers: live ones lead to their root (the landing rule picks the
 * page); archived ones, offered to their owner only, ask with the restore-organization modal
 * and land in the organization once restored (declining does nothing).
 */
export function useOrganizationPicker() {
  const navigate = useNavigate();
  const all = useMyOrganizationsQuery().data ?? [];
  const [restoring, setRestoring] = useState<OrganizationSummary | null>(null);
  const modal = (
    <LazyOnFirstUse active={restoring != null} fallback={null}>
      <RestoreOrganizationModal
        organization={restoring}
        onClose={(restored) => {
          const organization = restoring;
          setRestoring(null);
          if (restored && organization) {
            void navigate(href('org.root', { org: organization.slug }));
          }
        }}
      />
    </LazyOnFirstUse>
  );
  return {
    live: all.filter((org) => !org.archived),
    archived: all.filter((org) => org.archived && org.isOwner),
    pathOf: (org: OrganizationSummary) => href('org.root', { org: org.slug }),
    askToRestore: setRestoring,
    modal,
  };
}
