import { apiSchemas, exactly, view } from '@voltdepot/server-core';
import type {
  CaptchaResponse,
  RequiredEnrolmentResult,
  SessionTokens,
  TotpActivation,
  TotpEnrolment,
} from '@voltdepot/shared-contracts';
import { z } from 'zod';

export const loginSchema = z.object({
  username: z
    .string({ required_error: 'User name is required' })
    .trim()
    .min(1, 'User name is required')
    .max(64),
  password: z
    .string({ required_error: 'Password is required' })
    .min(6, 'Password must have at least 6 characters')
    .max(128),
  captchaId: z
    .string({ required_error: 'Verification code id is required' })
    .uuid('Verification code id is invalid'),
  captchaCode: z
    .string({ required_error: 'Verification code is required' })
    .trim()
    .min(1, 'Verification code is required')
    .max(16),
  totpCode: z.string().trim().max(32).optional(),
});
export type LoginDto = z.infer<typeof loginSchema>;

export const refreshSchema = z.object({
  refreshToken: z
    .string({ required_error: 'Refresh token is required' })
    .min(1, 'Refresh token is required')
    .max(512),
});

export const logoutSchema = z.object({ refreshToken: z.string().max(512).optional() }).default({});

export const totpCodeSchema = z
  .object({
    code: z.string({ required_error: 'Code is required' }).trim().min(1, 'Code is required').max(32),
  })
  .strict();
export const totpDisableSchema = z
  .object({
    password: z.string({ required_error: 'Password is required' }).min(1, 'Password is required').max(128),
  })
  .strict();

const enrolmentToken = z
  .string({ required_error: 'Enrolment token is required' })
  .min(1, 'Enrolment token is required')
  .max(128);
export const enrolmentStartSchema = z.object({ enrolmentToken }).strict();
export const enrolmentCompleteSchema = z
  .object({
    enrolmentToken,
    code: z.string({ required_error: 'Code is required' }).trim().min(1, 'Code is required').max(32),
  })
  .strict();

// Answers

export const captchaResponseSchema = apiSchemas.named(
  'CaptchaResponse',
  exactly<CaptchaResponse>()(
    view({
      captchaId: z.string(),
      image: z.string().describe('An SVG image as a data:image/svg+xml;base64 URL'),
      expiresAt: z.number().int().describe('Epoch milliseconds after which the code is rejected'),
      testAnswer: z
        .string()
        .optional()
        .describe('Only when the server runs with CAPTCHA_EXPOSE_ANSWER (tests)'),
    }),
  ),
);

export const sessionTokensSchema = apiSchemas.named(
  'SessionTokens',
  exactly<SessionTokens>()(
    view({
      accessToken: z.string(),
      expires: z.number().int().describe('Epoch milliseconds at which the access token expires'),
      refreshToken: z.string(),
      refreshExpires: z.number().int().describe('Epoch milliseconds at which the session expires'),
      tokenType: z.literal('Bearer'),
    }),
  ),
);

export const totpEnrolmentSchema = apiSchemas.named(
  'TotpEnrolment',
  exactly<TotpEnrolment>()(
    view({
      secret: z.string(),
      otpauthUrl: z.string(),
      qrCode: z.string().describe('A PNG data URL of otpauthUrl'),
    }),
  ),
);

export const totpActivationSchema = apiSchemas.named(
  'TotpActivation',
  exactly<TotpActivation>()(
    view({ recoveryCodes: z.array(z.string()).describe('Shown once; each signs in once instead of a code') }),
  ),
);

export const requiredEnrolmentResultSchema = apiSchemas.named(
  'RequiredEnrolmentResult',
  exactly<RequiredEnrolmentResult>()(
    view({ recoveryCodes: z.array(z.string()), session: sessionTokensSchema }),
  ),
);
