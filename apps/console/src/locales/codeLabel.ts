import type { TFunction } from 'i18next';

/** Label lists (from libs/shared/contracts' code labels) the console looks a protocol code up in. */
export type CodeList = 'billing.stopReason' | 'monitoring.errorCode' | 'monitoring.answerStatus';

type Translate = (key: string, options: { defaultValue: string }) => string;

/**
 * The label of a code shown where the console otherwise would show the raw code (an OCPP stop reason, a
 * connector's fault, a pile's answer); a code the console does not know yet shows as it is.
 */
export function codeLabel(t: TFunction, list: CodeList, code: string): string {
  return (t as unknown as Translate)(`${list}.${code}`, { defaultValue: code });
}
