import { Button, Group, Modal, Text } from '@mantine/core';
import { PLAN_LIMIT_MODAL } from '@shortlane/shared/credits.ts';
import { Link } from 'react-router-dom';
import { href } from '../../../routes/paths.ts';

export interface PlanLimitModalProps {
  opened: boolean;
  onClose: () => void;
}

/**
 * The plan-limit modal (link-creation 4): shown instead of the create popover once active-alias
 * usage reached 100% without usable overage; it leads to Manage Overages and Upgrade.
 */
export function PlanLimitModal({ opened, onClose }: PlanLimitModalProps) {
  return (
    <Modal opened={opened} onClose={onClose} title={PLAN_LIMIT_MODAL.title} centered>
      <Text size="sm">{PLAN_LIMIT_MODAL.hint}</Text>
      <Group mt="lg" justify="flex-end">
        {PLAN_LIMIT_MODAL.links.map((link, index) => (
          <Button
            key={link.route}
            component={Link}
            to={href(link.route)}
            onClick={onClose}
            variant={index === 0 ? 'default' : 'filled'}
          >
            {link.label}
          </Button>
        ))}
      </Group>
    </Modal>
  );
}
