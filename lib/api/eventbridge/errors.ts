/**
 * AWS errors of the EventBridge-compatible API (SPEC §14, EVENTBRIDGE.md §4): the code travels in the
 * `x-amzn-ErrorType` header, the text in a `{"Message"}` body, with the HTTP status of this one table.
 */

/** Every error code this API answers, with its HTTP status (the model's, and AWS's for signing). */
export const AWS_ERROR_STATUS = {
  ValidationException: 400,
  SerializationException: 400,
  ResourceNotFoundException: 404,
  ConflictException: 409,
  ServiceQuotaExceededException: 402,
  ThrottlingException: 429,
  InternalServerException: 500,
  AccessDeniedException: 403,
  InvalidSignatureException: 403,
  UnrecognizedClientException: 403,
  IncompleteSignatureException: 403,
  MissingAuthenticationTokenException: 403,
  UnknownOperationException: 404,
} as const;

export type AwsErrorCode = keyof typeof AWS_ERROR_STATUS;

/** A refusal in AWS's terms. The status comes only from AWS_ERROR_STATUS. */
export class AwsError extends Error {
  readonly code: AwsErrorCode;
  constructor(code: AwsErrorCode, message: string, opts: { cause?: unknown } = {}) {
    super(message, { cause: opts.cause });
    this.name = 'AwsError';
    this.code = code;
  }
  get status(): number {
    return AWS_ERROR_STATUS[this.code];
  }
}

/** A JSON answer with AWS's headers (`x-amzn-RequestId`). */
export function awsJson(body: unknown, status: number, requestId: string, extra: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', 'x-amzn-requestid': requestId, 'cache-control': 'no-store', ...extra },
  });
}

/** The wire form of an AwsError: status, `x-amzn-ErrorType`, `{"Message"}`. */
export function awsErrorResponse(err: AwsError, requestId: string): Response {
  return awsJson({ Message: err.message }, err.status, requestId, { 'x-amzn-errortype': err.code });
}
