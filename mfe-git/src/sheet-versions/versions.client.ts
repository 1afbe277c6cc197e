import {
  type AccessLevel,
  HISTORY_PAGE_SIZE,
  PruneResultSchema,
  type PruneResult,
  type RetentionPolicyInput,
  SharingStateSchema,
  SheetHistorySchema,
  VersionTransitionResultSchema,
  type AxiosInstance,
  type SheetHistory,
  type VersionTransitionResult,
} from '@tessera/contracts';

const sheetPath = (sheetId: string) => `/api/v1/sheets/${encodeURIComponent(sheetId)}`;
const versionPath = (sheetId: string, versionId: string) => `${sheetPath(sheetId)}/versions/${encodeURIComponent(versionId)}`;

/**
 * The api's sheet version routes (api README § Versions) through the shell's authenticated
 * client (`shell.api`); every answer is parsed with the contracts' schemas.
 */
export class VersionsClient {
  constructor(private readonly http: AxiosInstance) {}

  /** Open proposals first, then committed versions newest first (spec 02 §9 history page size). */
  async history(sheetId: string, limit: number = HISTORY_PAGE_SIZE): Promise<SheetHistory> {
    const { data } = await this.http.get(`${sheetPath(sheetId)}/history`, { params: { limit } });
    return SheetHistorySchema.parse(data);
  }

  /** accept (a proposal) or checkout (an archived version): its content becomes a new live version. */
  async transition(sheetId: string, versionId: string, action: 'accept' | 'checkout'): Promise<VersionTransitionResult> {
    const { data } = await this.http.post(`${versionPath(sheetId, versionId)}/${action}`);
    return VersionTransitionResultSchema.parse(data);
  }

  /** A proposal or an archived version leaves the history; the live one cannot (409). */
  async discard(sheetId: string, versionId: string): Promise<void> {
    await this.http.post(`${versionPath(sheetId, versionId)}/discard`);
  }

  /** The caller's level on the sheet (owners may prune its history). */
  async level(sheetId: string): Promise<AccessLevel> {
    const { data } = await this.http.get(`${sheetPath(sheetId)}/access`);
    return SharingStateSchema.parse(data).access;
  }

  /** Applies a retention policy once (owners); what it prunes cannot be undone. */
  async prune(sheetId: string, policy: RetentionPolicyInput): Promise<PruneResult> {
    const { data } = await this.http.post(`${sheetPath(sheetId)}/history/prune`, policy);
    return PruneResultSchema.parse(data);
  }

  /** Names a committed version (named versions are never pruned); an empty name removes it. */
  async label(sheetId: string, versionId: string, label: string): Promise<void> {
    if (label.trim() === '') await this.http.delete(`${versionPath(sheetId, versionId)}/label`);
    else await this.http.put(`${versionPath(sheetId, versionId)}/label`, { label: label.trim() });
  }
}
