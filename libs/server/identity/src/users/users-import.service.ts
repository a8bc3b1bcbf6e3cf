import { Inject, Injectable } from '@nestjs/common';
import type { AuthPrincipal } from '@voltdepot/server-core';
import {
  type AcceptedRow,
  checkSpreadsheetUpload,
  dictionaryChoices,
  dictionaryValue,
  type ImportProgress,
  type ImportProgressStore,
  type ImportReport,
  readSheet,
  type RowProblems,
  runImport,
  type SheetRow,
  type SpreadsheetLanguage,
  type UploadedSpreadsheet,
} from '@voltdepot/server-spreadsheet';
import { IdentityErrorCodes } from '@voltdepot/shared-contracts';
import type { ZodTypeAny } from 'zod';
import { IdentityException } from '../identity.exception';
import { DataScopeService } from '../shared/data-scope';
import { PasswordHasher } from '../shared/password-hasher';
import { nameSchema, passwordSchema, usernameSchema } from '../shared/schemas';
import { isUniqueViolation } from '../shared/sql';
import { emailSchema, phoneSchema, UserQuery } from './user.dto';
import { NewUser, UserRepository } from './user.repository';
import { ENABLED_ENTRIES, USER_IMPORT_COLUMNS, type UserSheetRow } from './user-sheet';

/** Where running user imports leave their progress (Redis, shared by every api instance). */
export const USER_IMPORT_PROGRESS = Symbol('USER_IMPORT_PROGRESS');

export const USER_IMPORT_MAX_BYTES = 2 * 1024 * 1024;
/** Every imported user's password is hashed with argon2id (tens of ms each), so imports stay modest. */
export const USER_IMPORT_MAX_ROWS = 1000;
const EXPORT_BATCH = 500;

type ImportedUser = { user: Omit<NewUser, 'passwordHash'>; password: string; roleIds: number[] };

@Injectable()
export class UsersImportService {
  constructor(
    private readonly users: UserRepository,
    private readonly scopes: DataScopeService,
    private readonly hasher: PasswordHasher,
    @Inject(USER_IMPORT_PROGRESS) private readonly progress: ImportProgressStore,
  ) {}

  /** The users of the caller's scope matching the list's filters, in batches (streamed to the sheet). */
  async exportBatches(me: AuthPrincipal, filter: UserQuery): Promise<AsyncIterable<UserSheetRow[]>> {
    const scope = await this.scopes.scopeOf(me.userId);
    const users = this.users;
    return (async function* batches() {
      let afterId = 0;
      for (;;) {
        const batch = await users.exportBatch(scope, filter, afterId, EXPORT_BATCH);
        if (batch.length > 0) yield batch;
        if (batch.length < EXPORT_BATCH) return;
        afterId = batch[batch.length - 1].id;
      }
    })();
  }

  /**
   * Creates users from a sheet. Every row is checked first (fields, organisation inside the caller's
   * data scope, known roles, user names unique in the file and in the database); then the accepted
   * users are inserted in one transaction. All or nothing: one bad row rejects the file.
   */
  async import(
    me: AuthPrincipal,
    file: UploadedSpreadsheet | undefined,
    options: { language: SpreadsheetLanguage; progressId?: string },
  ): Promise<ImportReport> {
    const kind = checkSpreadsheetUpload(file, USER_IMPORT_MAX_BYTES);
    const content = await readSheet(
      file!.buffer,
      kind,
      USER_IMPORT_COLUMNS,
      options.language,
      USER_IMPORT_MAX_ROWS,
    );
    const scope = await this.scopes.scopeOf(me.userId);
    const organizations = await this.users.organizationsInScope(scope);
    const roles = await this.users.roleIdsByCode();
    const owner = String(me.userId);
    const { progressId } = options;

    return runImport<ImportedUser>({
      content,
      columns: USER_IMPORT_COLUMNS,
      language: options.language,
      mode: 'all',
      validateRow: (row, problems) => this.validateRow(row, problems, organizations, roles, options.language),
      validateAll: async (accepted, problemsOf) => {
        const firstRow = new Map<string, number>();
        for (const { row, value } of accepted) {
          const key = value.user.username.toLowerCase();
          const first = firstRow.get(key);
          if (first === undefined) firstRow.set(key, row);
          else problemsOf(row).add('username', `Repeats the user name of row ${first}`);
        }
        const taken = await this.users.takenUsernames(accepted.map((a) => a.value.user.username));
        for (const { row, value } of accepted) {
          if (taken.has(value.user.username.toLowerCase())) {
            problemsOf(row).add('username', `User name '${value.user.username}' is already taken`);
          }
        }
      },
      save: (accepted, saved) => this.save(accepted, saved),
      onProgress: progressId === undefined ? undefined : (p) => this.progress.set(owner, progressId, p),
      progressIntervalMs: 200,
    });
  }

  progressOf(me: AuthPrincipal, progressId: string): Promise<ImportProgress | null> {
    return this.progress.get(String(me.userId), progressId);
  }

  private validateRow(
    { cells }: SheetRow,
    problems: RowProblems,
    organizations: Map<string, number>,
    roles: Map<string, number>,
    language: SpreadsheetLanguage,
  ): ImportedUser | null {
    const field = <T>(key: string, schema: ZodTypeAny, value: unknown): T | undefined => {
      const parsed = schema.safeParse(value);
      if (parsed.success) return parsed.data as T;
      problems.add(key, parsed.error.issues[0]?.message ?? 'Invalid value');
      return undefined;
    };
    const required = (key: string, label: string): string | undefined => {
      const value = cells[key];
      if (value === null) problems.add(key, `${label} is required`);
      return value ?? undefined;
    };
    const usernameText = required('username', 'User name');
    const username =
      usernameText === undefined ? undefined : field<string>('username', usernameSchema, usernameText);
    const realNameText = required('realName', 'Real name');
    const realName =
      realNameText === undefined ? undefined : field<string>('realName', nameSchema, realNameText);
    const passwordText = required('password', 'Initial password');
    const password =
      passwordText === undefined ? undefined : field<string>('password', passwordSchema, passwordText);
    const phone = field<string | null>('phone', phoneSchema, cells['phone']);
    const email = field<string | null>('email', emailSchema, cells['email']);

    const orgCode = required('organizationCode', 'Organization code');
    const organizationId = orgCode === undefined ? undefined : organizations.get(orgCode.toLowerCase());
    if (orgCode !== undefined && organizationId === undefined) {
      problems.add('organizationCode', `No organization with code '${orgCode}' inside your data scope`);
    }
    const roleIds: number[] = [];
    for (const code of (cells['roleCodes'] ?? '').split(/[,，;；\s]+/).filter(Boolean)) {
      const id = roles.get(code.toLowerCase());
      if (id === undefined) problems.add('roleCodes', `No role with code '${code}'`);
      else if (!roleIds.includes(id)) roleIds.push(id);
    }
    let enabled = true;
    if (cells['enabled'] !== null) {
      const value = dictionaryValue(ENABLED_ENTRIES, cells['enabled']);
      if (value === undefined) {
        problems.add('enabled', `Expected one of: ${dictionaryChoices(ENABLED_ENTRIES, language)}`);
      } else {
        enabled = value === 'true';
      }
    }
    if (!problems.ok || username === undefined || realName === undefined || password === undefined) {
      return null;
    }
    return {
      user: {
        username,
        realName,
        phone: phone ?? null,
        email: email ?? null,
        organizationId: organizationId!,
        enabled,
      },
      password,
      roleIds,
    };
  }

  private async save(
    accepted: AcceptedRow<ImportedUser>[],
    saved: (count: number) => Promise<void>,
  ): Promise<void> {
    const users: { user: NewUser; roleIds: number[] }[] = [];
    // Hashing is the slow part: report it as rows saved; the insert below is one short transaction.
    for (const { value } of accepted) {
      users.push({
        user: { ...value.user, passwordHash: await this.hasher.hash(value.password) },
        roleIds: value.roleIds,
      });
      await saved(users.length);
    }
    try {
      await this.users.insertMany(users);
    } catch (error) {
      if (isUniqueViolation(error, 'sys_user_username_uq')) {
        // Someone created one of these user names meanwhile; nothing of this import was kept.
        throw new IdentityException(
          IdentityErrorCodes.UsernameTaken,
          'A user name of the file was taken while importing; nothing was imported, try again',
        );
      }
      throw error;
    }
  }
}
