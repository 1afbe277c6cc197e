import { Button, HStack, Input } from '@chakra-ui/react';
import { useState, type FormEvent } from 'react';
import { useRepository } from './repository-context.js';

/** New File: asks for the path, then opens an empty editor on it. */
export function NewFileButton() {
  const newFile = useRepository((s) => s.newFile);
  const [open, setOpen] = useState(false);
  const [path, setPath] = useState('');
  const trimmed = path.trim().replace(/^\/+/, '');

  if (!open) {
    return (
      <Button size="xs" onClick={() => setOpen(true)}>
        New File
      </Button>
    );
  }
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!trimmed) return;
    newFile(trimmed);
    setOpen(false);
    setPath('');
  };
  return (
    <HStack as="form" gap="1" onSubmit={submit}>
      <Input size="xs" autoFocus aria-label="New file path" placeholder="path/to/file.py" value={path} onChange={(e) => setPath(e.target.value)} />
      <Button size="xs" type="submit" disabled={!trimmed}>
        Create
      </Button>
      <Button size="xs" variant="ghost" onClick={() => setOpen(false)}>
        Cancel
      </Button>
    </HStack>
  );
}
