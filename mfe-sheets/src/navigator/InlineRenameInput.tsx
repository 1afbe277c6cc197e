import { Input } from '@chakra-ui/react';
import { useRef, useState, type KeyboardEvent } from 'react';

export interface InlineRenameInputProps {
  initialName: string;
  label: string;
  /** Called once with the trimmed, non-empty, changed name. */
  onSave(name: string): void;
  onCancel(): void;
}

/**
 * The inline rename of a group or sheet (spec 01 §2): Enter or losing focus saves a
 * non-empty trimmed name, an empty name cancels, Escape cancels.
 */
export function InlineRenameInput({ initialName, label, onSave, onCancel }: InlineRenameInputProps) {
  const [value, setValue] = useState(initialName);
  // Enter or Escape ends the edit; the blur that follows the unmount must not end it again.
  const ended = useRef(false);

  const finish = (save: boolean) => {
    if (ended.current) return;
    ended.current = true;
    const name = value.trim();
    if (save && name !== '' && name !== initialName) onSave(name);
    else onCancel();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') finish(true);
    else if (event.key === 'Escape') finish(false);
  };

  return (
    <Input
      size="xs"
      aria-label={label}
      autoFocus
      value={value}
      onChange={(event) => setValue(event.target.value)}
      onKeyDown={onKeyDown}
      onBlur={() => finish(true)}
      onFocus={(event) => event.target.select()}
    />
  );
}
