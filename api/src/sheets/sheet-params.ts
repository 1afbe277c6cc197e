import { z } from 'zod';

export const SheetIdParamsSchema = z.object({ id: z.uuid({ error: 'Invalid sheet id' }) });
