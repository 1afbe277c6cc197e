import { Box, Button, HStack, Text } from '@chakra-ui/react';
import type { ShellContext } from '@tessera/contracts';
import { FigureList } from '@tessera/ui-kit';
import { useEffect, useRef, useState } from 'react';
import { useRepository } from '../repository/repository-context.js';
import { canRunOnSheet, runOnSheet, type RunOutcome } from './run-on-sheet.js';
import { RUN_TEXTS, runPlacementText } from './run-texts.js';

type RunState = { phase: 'idle' } | { phase: 'running' } | { phase: 'finished'; outcome: RunOutcome; sending: boolean };

/**
 * 'Run on sheet' in the toolbar's Code tab: runs the open Python file (the edited text while
 * editing) on the current sheet through the AI's Direct Exec, shows what it printed or its
 * error, and says where the result grid went. Disabled without a sheet or for another file.
 */
export function RunOnSheet({ shell }: { shell: ShellContext }) {
  const selected = useRepository((s) => s.selected);
  const code = useRepository((s) => (s.edit ? s.edit.draft : s.view?.path === s.selected && s.view.status === 'ready' ? s.view.text : null));
  const path = useRepository((s) => s.edit?.path ?? s.selected);
  const [state, setState] = useState<RunState>({ phase: 'idle' });
  const mounted = useRef(true);
  useEffect(
    () => () => {
      mounted.current = false;
    },
    [],
  );

  // Another file: its own run.
  useEffect(() => setState({ phase: 'idle' }), [selected]);

  const enabled = canRunOnSheet(shell, path) && code !== null && code.trim() !== '' && state.phase !== 'running';

  const run = async () => {
    if (code === null) return;
    setState({ phase: 'running' });
    const outcome = await runOnSheet(shell, code);
    if (!mounted.current) return;
    const sending = outcome.kind === 'done' && outcome.placed.kind === 'sheet' && outcome.placed.cells > 0;
    setState({ phase: 'finished', outcome, sending });
    if (outcome.kind === 'done' && outcome.placed.kind === 'sheet') {
      void outcome.placed.sent.then(() => mounted.current && setState((s) => (s.phase === 'finished' ? { ...s, sending: false } : s)));
    }
  };

  return (
    <Box mb="3" data-testid="run-on-sheet">
      <HStack gap="2">
        <Button size="xs" colorPalette="blue" disabled={!enabled} loading={state.phase === 'running'} onClick={() => void run()} title={enabled ? undefined : RUN_TEXTS.disabledHint}>
          {RUN_TEXTS.run}
        </Button>
        {state.phase === 'finished' && (
          <Text fontSize="sm" color={state.outcome.kind === 'failed' ? 'fg.error' : 'fg.muted'} role="status" data-testid="run-status">
            {state.outcome.kind === 'failed' ? RUN_TEXTS.failed : runPlacementText(state.outcome.placed, state.sending)}
          </Text>
        )}
      </HStack>
      {state.phase === 'finished' && state.outcome.kind === 'failed' && (
        <Box as="pre" role="alert" data-testid="run-error" mt="2" p="2" fontSize="xs" fontFamily="mono" whiteSpace="pre-wrap" color="fg.error" borderWidth="1px" borderRadius="md" maxH="30vh" overflow="auto">
          {state.outcome.error}
        </Box>
      )}
      {state.phase === 'finished' && state.outcome.output !== '' && (
        <Box as="pre" aria-label={RUN_TEXTS.output} data-testid="run-output" mt="2" p="2" fontSize="xs" fontFamily="mono" whiteSpace="pre-wrap" bg="bg.muted" borderRadius="md" maxH="30vh" overflow="auto">
          {state.outcome.output}
        </Box>
      )}
      {state.phase === 'finished' && state.outcome.kind === 'done' && <FigureList figures={state.outcome.figures.list} omitted={state.outcome.figures.omitted} testId="run-figures" />}
    </Box>
  );
}
