import { Notice } from '@tessera/ui-kit';

/** The Stream Error box (spec 02 §2): what failed, and Reload to send the request again. */
export function StreamErrorBox({ error, onReload }: { error: string; onReload(): void }) {
  return <Notice status="error" title="Stream Error" detail={error} action={{ label: 'Reload', onClick: onReload }} mx="3" my="2" width="auto" />;
}
