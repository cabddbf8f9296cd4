import { HttpError } from '@decor/kit';
import { isRefused, type RefusalCode, type Refused, refuse } from '../domain/refusals';

/** The one place a refusal becomes an HTTP answer: its status here, its sentence as `{ message }`. */
const STATUS: Record<RefusalCode, 400 | 401 | 403 | 404 | 409> = {
  invalid: 400,
  selectParentCompany: 400,
  nothingToChange: 400,
  passwordAlone: 400,
  customerFieldsOnly: 400,
  currentPasswordRequired: 400,
  resetLinkInvalid: 401,
  onlySuperadmin: 403,
  incorrectLogin: 403,
  accountSuspended: 403,
  currentPasswordWrong: 403,
  userNotFound: 404,
  companyNotFound: 404,
  notYourself: 409,
  notYourselfDelete: 409,
  emailTaken: 409,
  companyNameTaken: 409,
  companyHasCustomers: 409,
  suspendedNoWelcome: 409,
  changedMeanwhile: 409,
};

export function refusalError({ refused }: Refused): HttpError {
  return new HttpError(STATUS[refused.code], refused.message);
}

/** The outcome, or the refusal thrown as its HTTP answer. */
export function orRefuse<T>(outcome: T | Refused): T {
  if (isRefused(outcome)) throw refusalError(outcome);
  return outcome;
}

/** Throws the refusal, if any, as its HTTP answer. */
export function refuseIf(refused: Refused | undefined): void {
  if (refused) throw refusalError(refused);
}

/** The record, or its not-found refusal as its HTTP answer. */
export function orNotFound<T>(record: T | null | undefined, code: 'userNotFound' | 'companyNotFound'): T {
  if (record === null || record === undefined) throw refusalError(refuse(code));
  return record;
}
