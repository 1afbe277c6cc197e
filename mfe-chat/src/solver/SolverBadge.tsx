import { Badge } from '@chakra-ui/react';
import { solverBadgeText, type SolverStatus } from '@tessera/contracts';

const PALETTE: Record<SolverStatus['working_status'], string> = { success: 'green', retrying: 'orange', failed: 'red' };

/** Spec 02 §2 header: the solver status badge (success, retrying attempt n of max, failed). */
export function SolverBadge({ status }: { status: SolverStatus }) {
  return (
    <Badge colorPalette={PALETTE[status.working_status]} variant="solid" role="status" aria-label="Solver status">
      {solverBadgeText(status)}
    </Badge>
  );
}
