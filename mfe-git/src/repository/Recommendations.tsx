import { Badge, Box, Button, HStack, Spinner, Stack, Text } from '@chakra-ui/react';
import { useRepository } from './repository-context.js';

/** AI Recommendations for the change being edited (POST /git/recommendations): message, files, branches, impact. */
export function Recommendations() {
  const recommendations = useRepository((s) => s.recommendations);
  const edit = useRepository((s) => s.edit);
  const load = useRepository((s) => s.loadRecommendations);
  const setMessage = useRepository((s) => s.setMessage);
  const changed = !!edit && edit.draft !== edit.original;
  const data = recommendations.data;

  return (
    <Box as="section" aria-label="AI Recommendations" borderWidth="1px" borderRadius="md" p="3">
      <HStack justify="space-between" mb="2">
        <Text fontWeight="semibold" fontSize="sm">
          AI Recommendations
        </Text>
        <Button size="xs" variant="outline" disabled={!changed || recommendations.status === 'loading'} onClick={() => void load()}>
          Get recommendations
        </Button>
      </HStack>
      {recommendations.status === 'loading' && <Spinner size="sm" />}
      {recommendations.status === 'error' && (
        <Text role="alert" color="fg.error" fontSize="sm">
          {recommendations.error}
        </Text>
      )}
      {data && (
        <Stack gap="2" fontSize="sm" data-testid="recommendations">
          <Box>
            <Text color="fg.muted">Suggested commit message</Text>
            <HStack>
              <Text fontFamily="mono">{data.suggested_commit_message}</Text>
              <Button size="2xs" variant="ghost" onClick={() => setMessage(data.suggested_commit_message)}>
                Use
              </Button>
            </HStack>
          </Box>
          <Box>
            <Text color="fg.muted">Affected files</Text>
            <Text fontFamily="mono">{data.affected_files.join(', ')}</Text>
          </Box>
          {data.branch_recommendations.length > 0 && (
            <Box>
              <Text color="fg.muted">Branch recommendations</Text>
              {data.branch_recommendations.map((b) => (
                <Text key={b.name}>
                  <Text as="span" fontFamily="mono">
                    {b.name}
                  </Text>{' '}
                  — {b.description}
                </Text>
              ))}
            </Box>
          )}
          <Box>
            <Text color="fg.muted">Collaboration impact</Text>
            <HStack gap="1" wrap="wrap">
              <Badge colorPalette={data.collaboration_impact.breaking_changes ? 'red' : 'gray'}>
                breaking changes: {data.collaboration_impact.breaking_changes ? 'yes' : 'no'}
              </Badge>
              <Badge>review required: {data.collaboration_impact.review_required ? 'yes' : 'no'}</Badge>
              <Badge>merge complexity: {data.collaboration_impact.merge_complexity}</Badge>
              <Badge>team notification: {data.collaboration_impact.team_notification ? 'yes' : 'no'}</Badge>
            </HStack>
          </Box>
          {data.source === 'summary' && (
            <Text color="fg.muted" fontSize="xs">
              Summary of the diff (no AI model is configured).
            </Text>
          )}
        </Stack>
      )}
    </Box>
  );
}
