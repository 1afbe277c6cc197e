import { Box, Button, Heading, HStack, Input, NativeSelect, Spinner, Table, Text } from '@chakra-ui/react';
import { ACTIVITY_KINDS, ACTIVITY_LABELS, ACTIVITY_TEXTS, type ActivityEntry, type ActivityKind, describeError, type ShellContext, type User } from '@tessera/contracts';
import { Notice } from '@tessera/ui-kit';
import { Fragment, useCallback, useEffect, useRef, useState } from 'react';
import { type ActivityFilters, loadActivity, NO_FILTERS } from '../members-api/activity.api.js';
import { detailLines } from './activity-detail.js';

type ActivityState =
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'ready'; entries: ActivityEntry[]; nextBefore: number | null };

export interface ActivityScreenProps {
  api: ShellContext['api'];
  /** The members list: the member filter's choices, and names for ids in details. */
  members: User[];
  onBack(): void;
}

const TYPE_LABELS = { sheet: 'sheet', group: 'group', user: 'member' } as const;

/**
 * The admins' Activity screen (issue 18): the activity log newest first, filtered by member,
 * kind and item, paged with Load more. The server refuses anyone but admins.
 */
export function ActivityScreen({ api, members, onBack }: ActivityScreenProps) {
  const [filters, setFilters] = useState<ActivityFilters>(NO_FILTERS);
  const [itemDraft, setItemDraft] = useState('');
  const [state, setState] = useState<ActivityState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const [more, setMore] = useState<{ loading: boolean; error: string | null }>({ loading: false, error: null });
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  // Each first-page load starts a generation: a reply of an older one (other filters) is dropped.
  const generation = useRef(0);

  useEffect(() => {
    const gen = ++generation.current;
    setState({ status: 'loading' });
    setMore({ loading: false, error: null });
    loadActivity(api, filters, null).then(
      (page) => gen === generation.current && setState({ status: 'ready', entries: page.entries, nextBefore: page.next_before }),
      (error: unknown) => gen === generation.current && setState({ status: 'error', message: describeError(error) }),
    );
    return () => {
      generation.current++;
    };
  }, [api, filters, attempt]);

  const loadMore = useCallback(() => {
    if (state.status !== 'ready' || state.nextBefore === null) return;
    const gen = generation.current;
    setMore({ loading: true, error: null });
    loadActivity(api, filters, state.nextBefore).then(
      (page) => {
        if (gen !== generation.current) return;
        setState((s) => (s.status === 'ready' ? { status: 'ready', entries: [...s.entries, ...page.entries], nextBefore: page.next_before } : s));
        setMore({ loading: false, error: null });
      },
      (error: unknown) => gen === generation.current && setMore({ loading: false, error: describeError(error) }),
    );
  }, [api, filters, state]);

  const filterBy = (change: Partial<ActivityFilters>) => setFilters((f) => ({ ...f, ...change }));
  const showItem = (id: string) => {
    setItemDraft(id);
    filterBy({ itemId: id });
  };
  const filtered = filters.userId !== '' || filters.kind !== '' || filters.itemId !== '';
  const toggle = (id: string) =>
    setExpanded((s) => {
      const next = new Set(s);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  return (
    <Box>
      <HStack justify="space-between" mb="3" gap="2" wrap="wrap">
        <Heading id="activity-title" size="md">
          Activity
        </Heading>
        <Button size="xs" variant="outline" onClick={onBack}>
          Back to members
        </Button>
      </HStack>
      <HStack as="form" gap="2" mb="3" wrap="wrap" aria-label="Activity filters" onSubmit={(e) => {
        e.preventDefault();
        filterBy({ itemId: itemDraft.trim() });
      }}>
        <NativeSelect.Root size="xs" width="auto">
          <NativeSelect.Field aria-label="Member" value={filters.userId} onChange={(e) => filterBy({ userId: e.target.value })}>
            <option value="">All members</option>
            {members.map((m) => (
              <option key={m.id} value={m.id}>
                {m.username}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
        <NativeSelect.Root size="xs" width="auto">
          <NativeSelect.Field aria-label="Kind" value={filters.kind} onChange={(e) => filterBy({ kind: e.target.value as ActivityKind | '' })}>
            <option value="">All kinds</option>
            {ACTIVITY_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {ACTIVITY_LABELS[kind]}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
        <Input size="xs" width="18em" aria-label="Item id" placeholder="Item id" value={itemDraft} onChange={(e) => setItemDraft(e.target.value)} />
        <Button size="xs" type="submit" variant="outline">
          Filter
        </Button>
        {filtered && (
          <Button
            size="xs"
            variant="ghost"
            onClick={() => {
              setItemDraft('');
              setFilters(NO_FILTERS);
            }}
          >
            Clear filters
          </Button>
        )}
      </HStack>
      {state.status === 'loading' && (
        <HStack role="status" gap="2">
          <Spinner size="sm" />
          <Text>Loading activity...</Text>
        </HStack>
      )}
      {state.status === 'error' && (
        <Notice status="error" size="md" title={ACTIVITY_TEXTS.loadFailed} detail={state.message} action={{ label: 'Retry', onClick: () => setAttempt((n) => n + 1), size: 'sm' }} />
      )}
      {state.status === 'ready' && state.entries.length === 0 && <Text role="status">{filtered ? ACTIVITY_TEXTS.emptyFiltered : ACTIVITY_TEXTS.empty}</Text>}
      {state.status === 'ready' && state.entries.length > 0 && (
        <Table.Root size="sm" variant="line" aria-labelledby="activity-title">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader>When</Table.ColumnHeader>
              <Table.ColumnHeader>Who</Table.ColumnHeader>
              <Table.ColumnHeader>What</Table.ColumnHeader>
              <Table.ColumnHeader>Item</Table.ColumnHeader>
              <Table.ColumnHeader>Address</Table.ColumnHeader>
              <Table.ColumnHeader>Details</Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {state.entries.map((entry) => {
              const lines = detailLines(entry.detail, members);
              const open = expanded.has(entry.id);
              return (
                <Fragment key={entry.id}>
                  <Table.Row data-testid={`activity-row-${entry.id}`}>
                    <Table.Cell>
                      <time dateTime={entry.at}>{new Date(entry.at).toLocaleString()}</time>
                    </Table.Cell>
                    <Table.Cell>{entry.actor.username}</Table.Cell>
                    <Table.Cell>{ACTIVITY_LABELS[entry.kind]}</Table.Cell>
                    <Table.Cell>
                      {entry.item ? (
                        <>
                          <Button
                            size="2xs"
                            variant="plain"
                            textDecoration="underline"
                            px="0"
                            title="Show only this item's activity"
                            onClick={() => entry.item && showItem(entry.item.id)}
                          >
                            {entry.item.name || entry.item.id}
                          </Button>{' '}
                          <Text as="span" color="fg.muted">
                            ({TYPE_LABELS[entry.item.type]})
                          </Text>
                        </>
                      ) : (
                        '—'
                      )}
                    </Table.Cell>
                    <Table.Cell>{entry.address ?? '—'}</Table.Cell>
                    <Table.Cell>
                      {lines.length > 0 && (
                        <Button size="2xs" variant="ghost" aria-expanded={open} onClick={() => toggle(entry.id)}>
                          {open ? 'Hide details' : 'Details'}
                        </Button>
                      )}
                    </Table.Cell>
                  </Table.Row>
                  {open && (
                    <Table.Row data-testid={`activity-detail-${entry.id}`}>
                      <Table.Cell colSpan={6}>
                        <Box as="dl" fontSize="xs">
                          {lines.map((line) => (
                            <HStack key={line.label} gap="2" align="baseline">
                              <Text as="dt" fontWeight="semibold">
                                {line.label}
                              </Text>
                              <Text as="dd">{line.value}</Text>
                            </HStack>
                          ))}
                        </Box>
                      </Table.Cell>
                    </Table.Row>
                  )}
                </Fragment>
              );
            })}
          </Table.Body>
        </Table.Root>
      )}
      {more.error && (
        <Notice status="error" size="md" title={ACTIVITY_TEXTS.loadFailed} detail={more.error} mt="2" />
      )}
      {state.status === 'ready' && state.nextBefore !== null && (
        <Button size="xs" variant="outline" mt="2" loading={more.loading} onClick={loadMore}>
          Load more
        </Button>
      )}
    </Box>
  );
}
