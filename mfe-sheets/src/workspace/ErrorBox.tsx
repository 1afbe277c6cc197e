import { Notice } from '@tessera/ui-kit';

/** A load or command failure, in a box the user can dismiss (spec 01 §2). */
export function ErrorBox({ message, onDismiss }: { message: string; onDismiss(): void }) {
  return <Notice status="error" role="" detail={message} action={{ label: 'Dismiss', onClick: onDismiss }} data-testid="sheet-error" m="2" width="auto" />;
}
