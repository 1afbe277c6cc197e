import { Badge, Button, CloseButton, Dialog, Heading, Portal, Table, Text } from '@chakra-ui/react';
import { type CodeRunnerInfo, REMOTE_NAMES } from '@tessera/contracts';
import { useStore } from 'zustand';
import { remoteStatusStore } from '../remotes/remote-status.store.js';
import { HEALTH_TARGETS } from './health-monitor.js';
import { healthStore } from './health.store.js';

/** Each remote's release running on this page (DESIGN.md § Remote versions). */
function RemoteVersions() {
  const remotes = useStore(remoteStatusStore);
  return (
    <Table.Root size="sm" variant="outline" data-testid="remote-versions">
      <Table.Header>
        <Table.Row>
          <Table.ColumnHeader>Remote</Table.ColumnHeader>
          <Table.ColumnHeader>Version</Table.ColumnHeader>
          <Table.ColumnHeader>Release</Table.ColumnHeader>
        </Table.Row>
      </Table.Header>
      <Table.Body>
        {REMOTE_NAMES.map((remote) => {
          const r = remotes[remote];
          return (
            <Table.Row key={remote} data-testid={`remote-version-${remote}`}>
              <Table.Cell>{remote}</Table.Cell>
              <Table.Cell>{r?.status === 'running' ? r.version : '—'}</Table.Cell>
              <Table.Cell title={r?.status === 'failed' ? r.message : undefined}>
                {!r ? (
                  'not loaded'
                ) : r.status === 'running' ? (
                  <Badge colorPalette={r.release === 'live' ? 'green' : r.release === 'canary' ? 'purple' : 'orange'}>{r.release}</Badge>
                ) : (
                  <Badge colorPalette="red">unavailable</Badge>
                )}
              </Table.Cell>
            </Table.Row>
          );
        })}
      </Table.Body>
    </Table.Root>
  );
}

const ENGINE_LABELS = { gvisor: 'CPython in gVisor', pyodide: 'Pyodide (standard library only)' } as const;

/** Which Python runs the chat's and the Code tab's code, and which packages it offers (issue 19). */
function PythonEngine({ info }: { info: CodeRunnerInfo | undefined }) {
  const { python, ...packages } = info?.packages ?? {};
  const names = Object.keys(packages).sort();
  return (
    <Text fontSize="sm" data-testid="python-engine">
      {!info
        ? 'Not reported yet'
        : info.engine === null
          ? 'No code runs (the engine is starting, or cannot run here)'
          : `${ENGINE_LABELS[info.engine]}${python ? `, Python ${python}` : ''}${names.length ? ` — ${names.map((n) => `${n} ${packages[n]}`).join(', ')}` : ''}`}
    </Text>
  );
}

/** The About view: each service's health as the monitor last saw it, and each remote's running release. */
export function AboutDialog() {
  const health = useStore(healthStore);
  return (
    <Dialog.Root size="lg">
      <Dialog.Trigger asChild>
        <Button size="sm" variant="ghost" data-testid="about-button">
          About
        </Button>
      </Dialog.Trigger>
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="about-dialog">
            <Dialog.Header>
              <Dialog.Title>About Tessera</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Text fontSize="sm" mb="3" color="fg.muted">
                Collaborative spreadsheet workspace with an AI assistant. Services are checked every 30 seconds.
              </Text>
              <Table.Root size="sm" variant="outline">
                <Table.Header>
                  <Table.Row>
                    <Table.ColumnHeader>Service</Table.ColumnHeader>
                    <Table.ColumnHeader>URL</Table.ColumnHeader>
                    <Table.ColumnHeader>Status</Table.ColumnHeader>
                    <Table.ColumnHeader>Last check</Table.ColumnHeader>
                    <Table.ColumnHeader>Response time</Table.ColumnHeader>
                  </Table.Row>
                </Table.Header>
                <Table.Body>
                  {HEALTH_TARGETS.map(({ service }) => {
                    const h = health[service];
                    return (
                      <Table.Row key={service} data-testid={`health-${service}`}>
                        <Table.Cell>{service}</Table.Cell>
                        <Table.Cell wordBreak="break-all">{h?.url ?? '—'}</Table.Cell>
                        <Table.Cell>
                          {h ? <Badge colorPalette={h.status === 'healthy' ? 'green' : 'red'}>{h.status}</Badge> : 'checking'}
                        </Table.Cell>
                        <Table.Cell>{h ? new Date(h.lastCheck).toLocaleTimeString() : '—'}</Table.Cell>
                        <Table.Cell>{h ? `${h.responseTime} ms` : '—'}</Table.Cell>
                      </Table.Row>
                    );
                  })}
                </Table.Body>
              </Table.Root>
              <Heading size="sm" mt="4" mb="2">
                Python
              </Heading>
              <PythonEngine info={health['ai-middleware']?.codeRunner} />
              <Heading size="sm" mt="4" mb="2">
                Remotes
              </Heading>
              <RemoteVersions />
            </Dialog.Body>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
