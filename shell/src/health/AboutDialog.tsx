import { Badge, Button, CloseButton, Dialog, Portal, Table, Text } from '@chakra-ui/react';
import { useStore } from 'zustand';
import { HEALTH_TARGETS } from './health-monitor.js';
import { healthStore } from './health.store.js';

/** The About view: each service's health as the monitor last saw it. */
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
