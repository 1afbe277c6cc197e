import { Box, Button, CloseButton, HStack, Input, Tag, Text, VStack, Wrap } from '@chakra-ui/react';
import { FAILED_TO_LOAD_GIT_FUNCTIONS, SELECTED_FUNCTIONS_MAX, type GitFunction, type SelectedFunction, type ShellContext } from '@tessera/contracts';
import { useEffect, useRef, useState } from 'react';
import { loadGitFunctions, toSelectedFunction } from './git-functions.service.js';

/** Rows shown at once; the filter finds the rest. */
const SHOWN = 50;

type ListState = { status: 'idle' | 'loading' } | { status: 'ready'; functions: GitFunction[]; truncated: boolean } | { status: 'failed' };

export interface FunctionPickerProps {
  ai: ShellContext['ai'];
  selected: SelectedFunction[];
  onChange(selected: SelectedFunction[]): void;
}

/**
 * The repository's functions to talk about (spec 02 §3 selected_functions, §7 GET /git/functions):
 * the list loads when the picker is first opened; picked functions are chips that go out with
 * the next messages. A failed load is a warning only (spec 02 §8): sending still works.
 */
export function FunctionPicker({ ai, selected, onChange }: FunctionPickerProps) {
  const [open, setOpen] = useState(false);
  const [list, setList] = useState<ListState>({ status: 'idle' });
  const [filter, setFilter] = useState('');
  const cancel = useRef<AbortController | null>(null);
  useEffect(() => () => cancel.current?.abort(), []);

  const load = async () => {
    cancel.current?.abort();
    const controller = new AbortController();
    cancel.current = controller;
    setList({ status: 'loading' });
    try {
      const { functions, truncated } = await loadGitFunctions(ai, controller.signal);
      setList({ status: 'ready', functions, truncated });
    } catch {
      if (!controller.signal.aborted) setList({ status: 'failed' });
    }
  };
  const toggleOpen = () => {
    if (!open && list.status === 'idle') void load();
    setOpen((o) => !o);
  };

  const isPicked = (fn: GitFunction) => selected.some((s) => s.id === fn.id);
  const toggle = (fn: GitFunction) =>
    onChange(isPicked(fn) ? selected.filter((s) => s.id !== fn.id) : selected.length < SELECTED_FUNCTIONS_MAX ? [...selected, toSelectedFunction(fn)] : selected);
  const needle = filter.trim().toLowerCase();
  const matching = list.status === 'ready' ? list.functions.filter((fn) => !needle || `${fn.name} ${fn.filePath}`.toLowerCase().includes(needle)) : [];

  return (
    <Box mt="2" p="2" borderWidth="1px" borderRadius="md" role="group" aria-label="Git Functions">
      <HStack justify="space-between">
        <Text fontWeight="medium">Functions</Text>
        <Button size="2xs" variant="outline" aria-expanded={open} onClick={toggleOpen}>
          {open ? 'Done' : 'Choose'}
        </Button>
      </HStack>
      {selected.length === 0 ? (
        !open && <Text color="fg.muted">No functions chosen</Text>
      ) : (
        <Wrap mt="1" gap="1">
          {selected.map((fn) => (
            <Tag.Root key={fn.id ?? fn.name} size="sm">
              <HStack gap="1">
                <Tag.Label title={fn.file_path}>{fn.name}</Tag.Label>
                <CloseButton size="2xs" aria-label={`Remove ${fn.name}`} onClick={() => onChange(selected.filter((s) => s !== fn))} />
              </HStack>
            </Tag.Root>
          ))}
        </Wrap>
      )}
      {open && (
        <Box mt="2">
          {list.status === 'loading' && <Text color="fg.muted">Loading functions...</Text>}
          {list.status === 'failed' && (
            <HStack role="alert" color="fg.warning" gap="2">
              <Text>{FAILED_TO_LOAD_GIT_FUNCTIONS}</Text>
              <Button size="2xs" variant="outline" onClick={() => void load()}>
                Retry
              </Button>
            </HStack>
          )}
          {list.status === 'ready' &&
            (list.functions.length === 0 ? (
              <Text color="fg.muted">No functions in the repository's .py and .ts files</Text>
            ) : (
              <>
                <Input size="xs" placeholder="Filter functions" aria-label="Filter functions" value={filter} onChange={(e) => setFilter(e.target.value)} />
                <VStack as="ul" role="list" aria-label="Functions" align="stretch" gap="0" mt="1" maxH="40" overflowY="auto">
                  {matching.slice(0, SHOWN).map((fn) => (
                    <Box as="li" key={fn.id} listStyleType="none">
                      <label>
                        <HStack gap="2" fontSize="xs">
                          <input type="checkbox" checked={isPicked(fn)} onChange={() => toggle(fn)} />
                          <Text as="span" fontFamily="mono">
                            {fn.name}
                          </Text>
                          <Text as="span" color="fg.muted" truncate>
                            {fn.filePath}:{fn.line}
                          </Text>
                        </HStack>
                      </label>
                    </Box>
                  ))}
                </VStack>
                {(matching.length > SHOWN || list.truncated) && <Text color="fg.muted">Type to find more</Text>}
              </>
            ))}
        </Box>
      )}
    </Box>
  );
}
