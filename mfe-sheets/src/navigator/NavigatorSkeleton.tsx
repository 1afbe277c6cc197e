import { Heading, Skeleton, Stack } from '@chakra-ui/react';

/** Shown while the sheet tree loads (spec 01 §2: a skeleton titled 'Sheets'). */
export function NavigatorSkeleton() {
  return (
    <Stack gap="2" aria-busy="true" data-testid="navigator-skeleton">
      <Heading size="sm">Sheets</Heading>
      {[0, 1, 2, 3, 4].map((row) => (
        <Skeleton key={row} height="6" />
      ))}
    </Stack>
  );
}
