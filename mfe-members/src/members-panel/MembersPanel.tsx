import { Alert, Box, Button, Heading, HStack, Spinner, Table, Text } from '@chakra-ui/react';
import { describeError, type RemoteProps, type User } from '@tessera/contracts';
import { useCallback, useEffect, useState } from 'react';
import { loadMembers } from './load-members.js';

type MembersState =
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'ready'; users: User[] };

/**
 * The Members panel (spec 01 §2): every account with its role, nickname and
 * email; the signed-in user is tagged (You). Online dots and the admin actions
 * arrive with the issues that build presence and member management.
 */
export default function MembersPanel({ shell }: RemoteProps) {
  const { api, user } = shell;
  const [state, setState] = useState<MembersState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let current = true;
    setState({ status: 'loading' });
    loadMembers(api).then(
      (users) => current && setState({ status: 'ready', users }),
      (error: unknown) => current && setState({ status: 'error', message: describeError(error) }),
    );
    // A reply that arrives after unmount or a newer load is dropped.
    return () => {
      current = false;
    };
  }, [api, attempt]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);

  return (
    <Box as="section" aria-labelledby="members-title" p="4">
      <Heading id="members-title" size="md" mb="3">
        Members
      </Heading>
      {state.status === 'loading' && (
        <HStack role="status" gap="2">
          <Spinner size="sm" />
          <Text>Loading members...</Text>
        </HStack>
      )}
      {state.status === 'error' && (
        <Alert.Root status="error" role="alert">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>Could not load members</Alert.Title>
            <Alert.Description>{state.message}</Alert.Description>
          </Alert.Content>
          <Button size="sm" variant="outline" onClick={retry}>
            Retry
          </Button>
        </Alert.Root>
      )}
      {state.status === 'ready' && (
        <Table.Root size="sm" variant="line">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader>Username</Table.ColumnHeader>
              <Table.ColumnHeader>Role</Table.ColumnHeader>
              <Table.ColumnHeader>Nickname</Table.ColumnHeader>
              <Table.ColumnHeader>Email</Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {state.users.map((member) => (
              <Table.Row key={member.id}>
                <Table.Cell>
                  {member.username}
                  {member.id === user.id && (
                    <Text as="span" ms="1" color="fg.muted">
                      (You)
                    </Text>
                  )}
                </Table.Cell>
                <Table.Cell>{member.role}</Table.Cell>
                <Table.Cell>{member.nickname ?? ''}</Table.Cell>
                <Table.Cell>{member.email ?? ''}</Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      )}
    </Box>
  );
}
