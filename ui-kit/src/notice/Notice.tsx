import { Alert, Button, CloseButton } from '@chakra-ui/react';
import type { ReactNode } from 'react';

export interface NoticeProps extends Omit<Alert.RootProps, 'title' | 'status' | 'children'> {
  status: 'success' | 'error' | 'info' | 'warning';
  /** The spec's text, exactly ('Password updated', 'Stream Error'...). */
  title?: ReactNode;
  /** What went on, or what the server said, under the title; nothing when empty. */
  detail?: ReactNode;
  /** A small × button, labelled 'Dismiss', that closes the notice. */
  onClose?(): void;
  closeSize?: '2xs' | 'xs';
  /** A button with words instead ('Dismiss', 'Reload'). */
  action?: { label: string; onClick(): void; size?: 'xs' | 'sm' };
}

/** What a screen keeps in its state to show one notice: `<Notice {...notice} onClose={...} />`. */
export type NoticeState = Pick<NoticeProps, 'status' | 'title' | 'detail'>;

/**
 * An in-page notice instead of a browser alert (which stops the whole page, live updates included).
 * A failure is an alert, anything else a status, unless `role` says otherwise (`role=""`: none,
 * for a box that must not be announced or counted among a screen's alerts).
 */
export function Notice({ status, title, detail, onClose, closeSize = 'xs', action, role, ...rest }: NoticeProps) {
  return (
    <Alert.Root status={status} role={role === undefined ? (status === 'error' ? 'alert' : 'status') : role || undefined} size="sm" {...rest}>
      <Alert.Indicator />
      <Alert.Content>
        {title !== undefined && <Alert.Title>{title}</Alert.Title>}
        {detail ? <Alert.Description>{detail}</Alert.Description> : null}
      </Alert.Content>
      {action && (
        <Button size={action.size ?? 'xs'} variant="outline" onClick={action.onClick}>
          {action.label}
        </Button>
      )}
      {onClose && <CloseButton size={closeSize} aria-label="Dismiss" onClick={onClose} />}
    </Alert.Root>
  );
}
