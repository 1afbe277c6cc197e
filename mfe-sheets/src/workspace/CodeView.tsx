import { Box } from '@chakra-ui/react';
import type { ShellContext } from '@tessera/contracts';
import { useEffect, useRef } from 'react';

/**
 * The toolbar's Code tab: mfe-git's ./CodeEditor, mounted by the shell inside this box (with
 * its loading, fallback card and Retry), so this remote never imports the other one.
 */
export function CodeView({ shell }: { shell: ShellContext }) {
  const ref = useRef<HTMLDivElement>(null);
  const { remotes } = shell;
  useEffect(() => (ref.current ? remotes.mount(ref.current, 'mfe-git', './CodeEditor') : undefined), [remotes]);
  return <Box ref={ref} h="full" data-testid="code-view" />;
}
