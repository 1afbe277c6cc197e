import { Alert, CloseButton } from '@chakra-ui/react';

export interface NoticeState {
  status: 'success' | 'error';
  /** The spec's text, exactly ('Password updated', 'Update failed', ...). */
  title: string;
  /** What the server said, when it said something. */
  detail?: string | null;
}

/** The panel's alerts (spec 01 §8): a success is a status, a failure an alert; both can be closed. */
export function Notice({ notice, onClose }: { notice: NoticeState; onClose(): void }) {
  return (
    <Alert.Root status={notice.status} role={notice.status === 'error' ? 'alert' : 'status'} size="sm" mb="3">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>{notice.title}</Alert.Title>
        {notice.detail && <Alert.Description>{notice.detail}</Alert.Description>}
      </Alert.Content>
      <CloseButton size="xs" aria-label="Dismiss" onClick={onClose} />
    </Alert.Root>
  );
}
