import type { ThreeDSecureInfo } from '../core/three-d-secure.ts';
import type { XmlElement } from './xml.ts';

/** `<three-d-secure-info>` as the provider writes it (the SDK camelCases it back into `transaction.threeDSecureInfo`). */
export function threeDSecureInfoXml(info: ThreeDSecureInfo | null): XmlElement | null {
  if (info === null) return null;
  const status = (step: ThreeDSecureInfo['lookup']): XmlElement => ({
    'trans-status': step.transStatus,
    'trans-status-reason': step.transStatusReason,
  });
  return {
    'liability-shifted': info.liabilityShifted,
    'liability-shift-possible': info.liabilityShiftPossible,
    status: info.status,
    enrolled: info.enrolled,
    cavv: info.cavv,
    'eci-flag': info.eciFlag,
    xid: info.xid,
    'ds-transaction-id': info.dsTransactionId,
    'three-d-secure-version': info.threeDSecureVersion,
    'three-d-secure-authentication-id': info.threeDSecureAuthenticationId,
    'acs-transaction-id': info.acsTransactionId,
    lookup: status(info.lookup),
    authentication: status(info.authentication),
  };
}
