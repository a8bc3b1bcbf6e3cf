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
