/** Intuit's fault bodies (notes §2) and the error type the handlers throw to answer one. */

export type FaultType =
  | 'ValidationFault'
  | 'SystemFault'
  | 'AuthenticationFault'
  | 'AuthorizationFault'
  | 'SERVICE';

export interface FaultError {
  Message: string;
  Detail: string;
  code: string;
  element?: string;
}

/** Thrown by entity and query code; the API layer turns it into `{Fault, time}` with `status`. */
export class QboFault extends Error {
  constructor(
    readonly status: number,
    readonly type: FaultType,
    readonly error: FaultError,
    readonly headers: Record<string, string> = {},
  ) {
    super(`${error.code} ${error.Message}: ${error.Detail}`);
  }
}

const validation = (code: string, Message: string, Detail: string, element?: string) =>
  new QboFault(400, 'ValidationFault', {
    Message,
    Detail,
    code,
    ...(element !== undefined ? { element } : {}),
  });

export const faults = {
  notFound: (entity: string, id: string) =>
    validation(
      '610',
      'Object Not Found',
      `Object Not Found : Something you're trying to use has been made inactive. Check the fields with accounts, customers, items, vendors or employees. (${entity} ${id})`,
    ),
  unknownProperty: (name: string) =>
    validation(
      '2010',
      'Request has invalid or unsupported property',
      `Property Name:Unrecognized field "${name}" specified is unsupported or invalid`,
      name,
    ),
  badJson: (why: string) =>
    validation(
      '2010',
      'Request has invalid or unsupported property',
      `Property Name:Failed to parse json object; nested exception is ${why}`,
    ),
  required: (field: string) =>
    validation(
      '2020',
      'Required param missing, need to supply the required value for the API',
      `Required parameter ${field} is missing in the request`,
      field,
    ),
  invalidReference: (entity: string, id: string, element: string) =>
    validation(
      '2500',
      'Invalid Reference Id',
      `Invalid Reference Id : ${entity} ${id} does not exist`,
      element,
    ),
  business: (detail: string, element?: string) =>
    validation(
      '6000',
      'A business validation error has occurred while processing your request',
      `Business Validation Error: ${detail}`,
      element,
    ),
  duplicateName: () =>
    validation('6240', 'Duplicate Name Exists Error', 'The name supplied already exists. : null'),
  duplicateDocNumber: (docNumber: string) =>
    validation(
      '6140',
      'Duplicate Document Number Error',
      `Duplicate Document Number Error : You must specify a different number. This number has already been used. DocNumber=${docNumber} is assigned to TxnType=Estimate with TxnId=…`,
    ),
  stale: () =>
    validation(
      '5010',
      'Stale Object Error',
      'Stale Object Error : You and QuickBooks Emulator were working on this at the same time. QuickBooks Emulator finished before you did, so your work was not saved.',
    ),
  unsupported: (operation: string) =>
    validation('500', 'Unsupported Operation', `Operation ${operation} is not supported.`),
  queryParse: (detail: string) => validation('4000', 'Error parsing query', `QueryParserError: ${detail}`),
  queryInvalid: (detail: string) => validation('4001', 'Invalid query', `QueryValidationError: ${detail}`),
  throttled: (retryAfterSec: number) =>
    new QboFault(
      429,
      'SERVICE',
      {
        Message: 'message=ThrottleExceeded; errorCode=003001; statusCode=429',
        Detail: 'The request limit was reached.  Try again later',
        code: '3001',
      },
      { 'retry-after': String(retryAfterSec) },
    ),
  system: (status: 500 | 503) =>
    new QboFault(status, 'SystemFault', {
      Message:
        status === 503
          ? 'message=Service Unavailable; errorCode=003002; statusCode=503'
          : 'An application error has occurred while processing your request',
      Detail:
        status === 503
          ? 'The service is temporarily unavailable. Try again later'
          : 'System Failure Error: An unexpected error occurred while accessing or saving your data. Please wait a few minutes and try again. If the problem persists, contact customer support.',
      code: status === 503 ? '3002' : '10000',
    }),
};

/** The body Intuit answers an expired or unknown access token with (lower-case keys, notes §1). */
export function authenticationFailedBody(detail: string) {
  return {
    warnings: null,
    intuitObject: null,
    fault: {
      error: [
        {
          message: 'message=AuthenticationFailed; errorCode=003200; statusCode=401',
          detail,
          code: '3200',
          element: null,
        },
      ],
      type: 'AUTHENTICATION',
    },
    report: null,
    queryResponse: null,
    batchItemResponse: [],
    attachableResponse: [],
    syncErrorResponse: null,
    requestId: null,
    time: Date.now(),
    status: null,
    cdcresponse: [],
  };
}
