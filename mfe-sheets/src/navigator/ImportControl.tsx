import { Button, Portal, Tooltip, chakra } from '@chakra-ui/react';
import { IMPORT_EXTENSIONS } from '@tessera/contracts';
import { useRef, type ChangeEvent } from 'react';

/** Spec 01 §2: the import control's tooltip. */
export const IMPORT_TOOLTIP = 'Import CSV / Excel';

/** The spec's .csv and .xlsx, and .xls, which the server reads too. */
const ACCEPT = IMPORT_EXTENSIONS.map((ext) => `.${ext}`).join(',');

export interface ImportControlProps {
  busy: boolean;
  onFile(file: File): void;
}

/** The navigator's Import button: opens the file chooser; the chosen file is imported at once. */
export function ImportControl({ busy, onFile }: ImportControlProps) {
  const input = useRef<HTMLInputElement>(null);
  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // Cleared so that choosing the same file again imports it again.
    event.target.value = '';
    if (file) onFile(file);
  };
  return (
    <>
      <Tooltip.Root openDelay={300} positioning={{ placement: 'bottom' }}>
        <Tooltip.Trigger asChild>
          <Button size="xs" variant="outline" disabled={busy} onClick={() => input.current?.click()}>
            Import
          </Button>
        </Tooltip.Trigger>
        <Portal>
          <Tooltip.Positioner>
            <Tooltip.Content>{IMPORT_TOOLTIP}</Tooltip.Content>
          </Tooltip.Positioner>
        </Portal>
      </Tooltip.Root>
      <chakra.input ref={input} type="file" accept={ACCEPT} hidden aria-label={IMPORT_TOOLTIP} onChange={onChange} data-testid="import-input" />
    </>
  );
}
