import { AppError } from '../../errors.js';
import { ForbiddenTargetError } from './target-guard.js';

/** Why a crawl failed; the first word of the SCAN_FAILED detail, stable for clients to branch on. */
export type FailureReason =
  | 'DNS'
  | 'CONNECTION_REFUSED'
  | 'CONNECTION_FAILED'
  | 'TLS'
  | 'TIMEOUT'
  | 'BROWSER_CRASHED'
  | 'BUSY'
  | 'NO_BROWSER';

export const scanFailed = (reason: FailureReason, detail: string) =>
  new AppError('SCAN_FAILED', [{ field: 'website', message: `${reason}: ${detail}` }]);

export const siteError = (detail: string) => new AppError('SCAN_SITE_ERROR', [{ field: 'website', message: detail }]);

export const targetForbidden = (err: ForbiddenTargetError | string) =>
  new AppError('SCAN_TARGET_FORBIDDEN', [
    {
      field: 'website',
      message: `${typeof err === 'string' ? err : err.message}; the scanner refuses such targets unless SCAN_ALLOW_PRIVATE_NETWORKS=true`,
    },
  ]);

/** Node's network error codes → a failure reason. */
export function reasonOf(err: unknown): FailureReason {
  const code = (err as NodeJS.ErrnoException | undefined)?.code ?? '';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_FAIL' || code === 'EAI_NODATA') return 'DNS';
  if (code === 'ECONNREFUSED') return 'CONNECTION_REFUSED';
  if (code === 'ETIMEDOUT' || code === 'TIMEOUT' || code === 'ABORT_ERR') return 'TIMEOUT';
  if (/CERT|TLS|SSL|SELF_SIGNED|UNABLE_TO_VERIFY/.test(code)) return 'TLS';
  return 'CONNECTION_FAILED';
}

/** Turns an error of a guarded connection into the API error for the scanned website. */
export function connectionError(err: unknown, url: string): AppError {
  if (err instanceof AppError) return err;
  if (err instanceof ForbiddenTargetError) return targetForbidden(err);
  const reason = reasonOf(err);
  const code = (err as NodeJS.ErrnoException).code;
  return scanFailed(reason, `${url} could not be loaded${code ? ` (${code})` : ''}`);
}
