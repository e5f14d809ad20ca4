/** The result views of the create form (link-creation 2) and their actions. */
export { BulkLinkResult, type BulkLinkResultProps } from './BulkLinkResult.tsx';
export { CopyButton } from './CopyButton.tsx';
export { QrCodeButton } from './QrCodeButton.tsx';
export { ShareMenu } from './ShareMenu.tsx';
export { SingleLinkResult, type SingleLinkResultProps } from './SingleLinkResult.tsx';
