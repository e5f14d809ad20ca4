/** The create form (link-creation 2, 4, 5, 8) and the plan-limit modal of the create popover. */
export { CreateLinkForm, type CreateLinkFormProps } from './CreateLinkForm.tsx';
export { LazyCreateLinkForm } from './LazyCreateLinkForm.tsx';
export { PlanLimitModal } from './PlanLimitModal.tsx';
export { usePlanLimitReached } from './usePlanLimitReached.ts';
export type { CreateFormMode, OrganizationScope } from './workspace.ts';
