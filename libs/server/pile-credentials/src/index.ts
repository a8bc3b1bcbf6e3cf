export * from './pile-password-hasher';
export * from './pile-password.config';
