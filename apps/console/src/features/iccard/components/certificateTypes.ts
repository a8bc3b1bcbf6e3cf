/** The certificate types the customer form offers; a type typed elsewhere (the api takes any text) shows as it is. */
export const CERTIFICATE_TYPES = ['idCard', 'passport', 'officer', 'other'] as const;

export const isCertificateType = (value: string): value is (typeof CERTIFICATE_TYPES)[number] =>
  (CERTIFICATE_TYPES as readonly string[]).includes(value);
