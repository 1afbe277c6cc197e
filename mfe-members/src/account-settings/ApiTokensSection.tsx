import { Alert, Badge, Box, Button, Code, Field, Heading, HStack, Input, NativeSelect, Stack, Text } from '@chakra-ui/react';
import {
  API_TOKEN_MAX_DAYS,
  API_TOKEN_NAME_MAX_LENGTH,
  type ApiToken,
  type ApiTokenScope,
  type CreatedApiToken,
  describeError,
  relativeTime,
  type ShellContext,
} from '@tessera/contracts';
import { ConfirmDialog, Notice } from '@tessera/ui-kit';
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { createApiToken, listApiTokens, revokeApiToken } from '../members-api/api-tokens.api.js';

/** The expiries offered: a token always expires, a year at most (API_TOKEN_MAX_DAYS). */
const EXPIRIES = [7, 30, 90, 180, API_TOKEN_MAX_DAYS] as const;
const SCOPES: { value: ApiTokenScope; label: string }[] = [
  { value: 'read', label: 'Read only' },
  { value: 'read-write', label: 'Read and write' },
];

const dateOf = (iso: string) => new Date(iso).toLocaleDateString();

type ListState = { status: 'loading' } | { status: 'error'; message: string } | { status: 'ready'; tokens: ApiToken[] };

/**
 * Personal API tokens in Account Settings (issue 21): create one (name, expiry, scope) and see it
 * once with a copy button; the list shows each token's start, scope, expiry and last use, and
 * revokes one after a confirmation. Tokens act with the member's own access.
 */
export function ApiTokensSection({ api }: { api: ShellContext['api'] }) {
  const [list, setList] = useState<ListState>({ status: 'loading' });
  const [name, setName] = useState('');
  const [days, setDays] = useState<number>(30);
  const [scope, setScope] = useState<ApiTokenScope>('read');
  const [creating, setCreating] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<CreatedApiToken | null>(null);
  const [copied, setCopied] = useState(false);
  const [revoking, setRevoking] = useState<ApiToken | null>(null);

  const reload = useCallback(async () => {
    try {
      setList({ status: 'ready', tokens: await listApiTokens(api) });
    } catch (err) {
      setList({ status: 'error', message: describeError(err) });
    }
  }, [api]);

  useEffect(() => {
    void reload();
  }, [reload]);

  const create = async (event: FormEvent) => {
    event.preventDefault();
    setCreating(true);
    setError(null);
    try {
      const token = await createApiToken(api, { name: name.trim(), scope, expires_in_days: days });
      setCreated(token);
      setCopied(false);
      setName('');
      await reload();
    } catch (err) {
      setError(describeError(err));
    } finally {
      setCreating(false);
    }
  };

  const copy = async () => {
    if (!created) return;
    await navigator.clipboard?.writeText(created.token);
    setCopied(true);
  };

  const revoke = async () => {
    if (!revoking) return;
    setError(null);
    try {
      await revokeApiToken(api, revoking.id);
      setRevoking(null);
      await reload();
    } catch (err) {
      setRevoking(null);
      setError(describeError(err));
    }
  };

  const now = Date.now();
  return (
    <Stack gap="3" as="section" aria-labelledby="api-tokens-title">
      <Heading id="api-tokens-title" size="sm">
        API tokens
      </Heading>
      <Text fontSize="sm" color="fg.muted">
        Scripts use a token as <Code>Authorization: Bearer tsr_…</Code>. It acts with your access; a read-only token cannot change anything.
      </Text>
      {error && (
        <Notice status="error" size="md" detail={error} />
      )}
      {created && (
        <Alert.Root status="success" role="status" aria-label="New API token">
          <Alert.Content gap="2">
            <Alert.Title>Copy your new token now: it will not be shown again.</Alert.Title>
            <HStack>
              <Input readOnly size="sm" fontFamily="mono" value={created.token} aria-label="New token" onFocus={(e) => e.target.select()} />
              <Button size="sm" onClick={() => void copy()}>
                {copied ? 'Copied' : 'Copy'}
              </Button>
            </HStack>
            <Box>
              <Button size="xs" variant="outline" onClick={() => setCreated(null)}>
                Done
              </Button>
            </Box>
          </Alert.Content>
        </Alert.Root>
      )}
      <Stack as="form" gap="2" onSubmit={create} aria-label="New API token form">
        <Field.Root>
          <Field.Label>Token name</Field.Label>
          <Input size="sm" value={name} maxLength={API_TOKEN_NAME_MAX_LENGTH} onChange={(e) => setName(e.target.value)} placeholder="e.g. nightly export" />
        </Field.Root>
        <HStack gap="2">
          <NativeSelect.Root size="sm">
            <NativeSelect.Field aria-label="Expires in" value={String(days)} onChange={(e) => setDays(Number(e.target.value))}>
              {EXPIRIES.map((d) => (
                <option key={d} value={d}>
                  {d === API_TOKEN_MAX_DAYS ? '1 year' : `${d} days`}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
          <NativeSelect.Root size="sm">
            <NativeSelect.Field aria-label="Scope" value={scope} onChange={(e) => setScope(e.target.value as ApiTokenScope)}>
              {SCOPES.map((s) => (
                <option key={s.value} value={s.value}>
                  {s.label}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        </HStack>
        <Box>
          <Button type="submit" size="sm" loading={creating} disabled={!name.trim()}>
            Create token
          </Button>
        </Box>
      </Stack>
      {list.status === 'loading' && <Text fontSize="sm">Loading tokens...</Text>}
      {list.status === 'error' && (
        <Text fontSize="sm" color="fg.error" role="alert">
          Could not load your API tokens: {list.message}
        </Text>
      )}
      {list.status === 'ready' && list.tokens.length === 0 && <Text fontSize="sm">No API tokens yet.</Text>}
      {list.status === 'ready' && list.tokens.length > 0 && (
        <Stack as="ul" gap="2" listStyleType="none" aria-label="API tokens">
          {list.tokens.map((t) => {
            const expired = Date.parse(t.expires_at) <= now;
            return (
              <Box as="li" key={t.id} borderWidth="1px" borderRadius="md" p="2" aria-label={t.name}>
                <HStack justify="space-between" align="flex-start">
                  <Stack gap="0">
                    <HStack gap="2">
                      <Text fontWeight="semibold">{t.name}</Text>
                      <Badge>{t.scope === 'read' ? 'read only' : 'read-write'}</Badge>
                      {t.revoked_at && <Badge colorPalette="red">revoked</Badge>}
                      {!t.revoked_at && expired && <Badge colorPalette="orange">expired</Badge>}
                    </HStack>
                    <Text fontSize="xs" color="fg.muted">
                      <Code fontSize="xs">{t.prefix}…</Code> · expires {dateOf(t.expires_at)} · last used{' '}
                      {t.last_used_at ? relativeTime(t.last_used_at, now) : 'never'}
                    </Text>
                  </Stack>
                  {!t.revoked_at && !expired && (
                    <Button size="xs" variant="outline" colorPalette="red" onClick={() => setRevoking(t)}>
                      Revoke
                    </Button>
                  )}
                </HStack>
              </Box>
            );
          })}
        </Stack>
      )}
      <ConfirmDialog
        open={revoking !== null}
        title="Revoke API token?"
        description={`Scripts using “${revoking?.name}” stop working at once. This cannot be undone.`}
        confirmLabel="Revoke"
        onConfirm={() => void revoke()}
        onCancel={() => setRevoking(null)}
      />
    </Stack>
  );
}
