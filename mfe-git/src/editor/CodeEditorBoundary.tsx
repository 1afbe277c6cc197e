import { Box, Button, Spinner, Text } from '@chakra-ui/react';
import { Component, lazy, Suspense, useContext, useMemo, useState, type ReactNode } from 'react';
import { EditorLoaderContext } from './editor-loader.js';
import type { EditorProps } from './editor-props.js';

class LoadFailure extends Component<{ onRetry(): void; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <Box role="alert" p="3" borderWidth="1px" borderRadius="md">
        <Text mb="2">The editor could not be loaded.</Text>
        <Button size="xs" onClick={() => { this.setState({ failed: false }); this.props.onRetry(); }}>
          Retry
        </Button>
      </Box>
    );
  }
}

/** The editor, loaded on first use behind this boundary (Monaco in the product). */
export function CodeEditorBoundary(props: EditorProps) {
  const load = useContext(EditorLoaderContext);
  const [attempt, setAttempt] = useState(0);
  // A new lazy component per attempt: a failed import is tried again on Retry.
  const Editor = useMemo(() => lazy(load), [load, attempt]);
  return (
    <LoadFailure onRetry={() => setAttempt((n) => n + 1)}>
      <Suspense
        fallback={
          <Box display="flex" alignItems="center" gap="2" p="3" role="status">
            <Spinner size="sm" />
            <Text>Loading editor…</Text>
          </Box>
        }
      >
        <Editor {...props} />
      </Suspense>
    </LoadFailure>
  );
}
