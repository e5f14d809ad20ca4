import { UsagePanel } from '../usage/UsagePanel.tsx';
import { TeamSettingsFrame } from './TeamSettingsFrame.tsx';

/** organization/{org}/team/{team}/usage: what the team's plan allows and what it used. */
export default function TeamUsagePage() {
  return (
    <TeamSettingsFrame title="Team usage">
      {(team) => <UsagePanel accountId={team.accountId} />}
    </TeamSettingsFrame>
  );
}
