/**
 * @tessera/ui-kit: the remotes' shared UI on Chakra v3. Shared through Module Federation by
 * version (like @tessera/contracts), so each remote still builds and deploys alone.
 */
export { DialogFrame, type DialogFrameProps } from './dialog-frame/DialogFrame.js';
export { ConfirmDialog, type ConfirmDialogProps } from './confirm-dialog/ConfirmDialog.js';
export { FormDialog, type FormDialogProps } from './form-dialog/FormDialog.js';
export { Notice, type NoticeProps, type NoticeState } from './notice/Notice.js';
export { RelativeTime } from './relative-time/RelativeTime.js';
export { FigureList, type FigureListProps } from './figure-list/FigureList.js';
export { steadyShell, useShellValue } from './steady-shell/steady-shell.js';
