/**
 * The error catalog: every stable error code Placet answers with, its HTTP status and the sentence a
 * person reads. Services throw `new AppError(code, details?)`; one handler in app.ts renders
 * `{ error: { code, message, details? } }`. Codes are part of the API: never rename one.
 */
export const ERRORS = {
  VALIDATION_FAILED: { status: 400, message: 'The request has invalid or missing fields.' },
  INVALID_JSON: { status: 400, message: 'The request body is not valid JSON.' },
  BAD_REQUEST: { status: 400, message: 'The request could not be understood.' },
  USERNAME_TAKEN: { status: 400, message: 'This username is already taken.' },
  API_KEY_TAKEN: { status: 400, message: 'Another client already has this apiKey.' },
  DOMAIN_ID_TAKEN: { status: 400, message: 'A domain with this id already exists.' },
  DOMAIN_LIMIT_REACHED: { status: 400, message: 'The client has reached its maximum number of domains.' },
  WHITELABEL_LIMIT_REACHED: {
    status: 400,
    message: 'The client has reached its maximum number of white-label domains.',
  },
  DOMAIN_NAME_INVALID: { status: 400, message: 'The domain name is not a valid host name or URL.' },
  DOMAIN_NAME_TAKEN: { status: 400, message: 'The client already has a domain with this host and path.' },
  RESOURCE_LIMIT_REACHED: { status: 400, message: 'A limit on the number of items was reached.' },
  PLACEHOLDER_NAME_TAKEN: { status: 400, message: 'The domain already has a placeholder with this name.' },
  LOCALE_NAME_TAKEN: { status: 400, message: 'The domain already has a locale with this name.' },
  IMMUTABLE_FIELD: { status: 400, message: 'This field identifies the resource and cannot be changed.' },
  DEFAULT_THEME_REQUIRED: {
    status: 400,
    message: 'A domain always has one default theme: mark another theme as default instead.',
  },
  LAST_THEME: { status: 400, message: 'The last theme of a domain cannot be deleted.' },
  INVALID_IMAGE: { status: 400, message: 'The image must be a base64 JPEG or PNG within the size limit.' },
  SCAN_TARGET_FORBIDDEN: {
    status: 400,
    message: 'The website resolves to a loopback, private, link-local or metadata address, which the scanner refuses.',
  },
  SCAN_SITE_ERROR: { status: 400, message: 'The website answered with an error status or empty content.' },
  SCAN_FAILED: { status: 500, message: 'Crawling the website failed.' },
  UNKNOWN_PRESET: { status: 400, message: 'No preset with this id exists.' },
  CONSENT_INVALID: { status: 400, message: 'The consent was not logged: the request is invalid.' },
  CONSENT_TOKEN_INVALID: {
    status: 403,
    message: 'The consent was not logged: it carries no valid token of a widget Placet served for this domain.',
  },
  CONSENT_TOKEN_EXPIRED: {
    status: 403,
    message: 'The consent was not logged: its widget token expired; reloading the page gives a fresh one.',
  },
  HANDOVER_INVALID: {
    status: 400,
    message: 'The hand-over was refused: the request does not name a page of a domain that shares consent across domains.',
  },
  HANDOVER_TOKEN_INVALID: {
    status: 400,
    message: 'The hand-over token is unknown, expired, already used, or not for this page.',
  },
  HANDOVER_NOT_LOGGED: {
    status: 409,
    message: "This decision is not the ucid's latest logged decision; there is nothing to hand over.",
  },
  HANDOVER_DECISION_VOID: {
    status: 409,
    message: "The decision is void under the domain's lifetime, reset date or legal revision; it cannot be handed over.",
  },
  HANDOVER_NOT_NEWER: {
    status: 409,
    message: 'The page already holds a decision as new as the handed-over one; nothing was adopted or logged.',
  },
  BLOCK_NOT_FOUND: { status: 404, message: 'The consent log block does not exist.' },
  CONSENT_LOG_EMPTY: { status: 409, message: 'The current block of the consent log is empty; there is nothing to archive.' },
  TCF_NOT_AVAILABLE: {
    status: 404,
    message: 'TCF is not available for this domain: it is not tcfEnabled, or the Global Vendor List has not been fetched yet.',
  },
  TCF_GVL_FETCH_FAILED: { status: 502, message: 'The Global Vendor List could not be fetched from TCF_GVL_URL.' },
  SNAPSHOT_NOT_FOUND: { status: 404, message: 'The domain has no snapshot with this hash.' },
  QUARANTINE_NOT_FOUND: { status: 404, message: 'The domain has no quarantined range with this id.' },
  CONSENT_LOG_NO_RECORDS: { status: 409, message: 'The consent log of the domain has no records yet; there is no head to sign.' },
  BLOCK_EXPIRED: { status: 410, message: 'The block expired under the retention period; its records were deleted.' },
  WEBHOOK_URL_FORBIDDEN: {
    status: 400,
    message: 'The webhook URL must be https:// on a public address (not loopback, private, link-local or metadata).',
  },
  VIDEO_PREVIEW_NOT_OFFERED: {
    status: 404,
    message: 'Video previews are not offered here: the domain does not exist or does not block iframes.',
  },
  VIDEO_PREVIEW_UNAVAILABLE: {
    status: 404,
    message: 'No preview image is available for this video: the video host has none, or could not be reached; asked again later.',
  },
  WEBHOOK_NOT_FOUND: { status: 404, message: 'The webhook does not exist.' },
  UNAUTHORIZED: { status: 401, message: 'A valid API key is required.' },
  LOGIN_FAILED: { status: 401, message: 'Wrong key, username or password, or the account is not active.' },
  FORBIDDEN: { status: 403, message: 'Your console role may not do this.' },
  /** A client feature flag is off: `details` name each refused field and its `flag` (README, "Feature flags"). */
  FEATURE_NOT_AVAILABLE: { status: 403, message: 'The client does not have the feature this needs.' },
  FORBIDDEN_ORIGIN: { status: 403, message: "The request's Origin (or Referer) is not a page of the domain." },
  CSRF_FAILED: { status: 403, message: 'The request lacks the console\'s CSRF token; reload the page and try again.' },
  NOT_FOUND: { status: 404, message: 'No such route.' },
  CLIENT_NOT_FOUND: { status: 404, message: 'The client does not exist.' },
  DOMAIN_NOT_FOUND: { status: 404, message: 'The domain does not exist.' },
  EMBEDDING_NOT_FOUND: { status: 404, message: 'The embedding does not exist.' },
  ASSET_NOT_FOUND: { status: 404, message: 'The asset does not exist.' },
  FOUND_ITEM_NOT_FOUND: { status: 404, message: 'The domain has no found item with this id.' },
  PLACEHOLDER_NOT_FOUND: { status: 404, message: 'The placeholder does not exist.' },
  LOCALE_NOT_FOUND: { status: 404, message: 'The locale does not exist.' },
  THEME_NOT_FOUND: { status: 404, message: 'The theme does not exist.' },
  METHOD_NOT_ALLOWED: { status: 405, message: 'This method is not allowed here.' },
  REQUEST_TIMEOUT: { status: 408, message: 'The request was not received within the time limit.' },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'The request body is larger than the limit.' },
  URI_TOO_LONG: { status: 414, message: 'The request URL is longer than the limit.' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'The request body must be JSON (Content-Type: application/json).' },
  RATE_LIMITED: { status: 429, message: 'Too many requests; slow down.' },
  HEADERS_TOO_LARGE: { status: 431, message: 'The request headers are larger than the limit.' },
  INTERNAL: { status: 500, message: 'An unexpected error occurred.' },
  UNAVAILABLE: { status: 503, message: 'The service is not ready.' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERRORS;

export interface ErrorDetail {
  /** Where the problem is, e.g. `body.emailAddress` or `params.domainId`. */
  field?: string;
  message: string;
  [extra: string]: unknown;
}

export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    readonly details?: ErrorDetail[],
    message?: string,
  ) {
    super(message ?? ERRORS[code].message);
    this.name = 'AppError';
    this.status = ERRORS[code].status;
  }

  toJSON(): { error: { code: ErrorCode; message: string; details?: ErrorDetail[] } } {
    return {
      error: {
        code: this.code,
        message: this.message,
        ...(this.details && this.details.length > 0 ? { details: this.details } : {}),
      },
    };
  }
}
