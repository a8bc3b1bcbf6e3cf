import { SEEDED_ROLES, type SeededRoleCode } from '@voltdepot/shared-contracts';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

/** A role as the lists and the current user's info carry it. */
type RoleTexts = { code: string; name: string; description?: string | null; builtin?: boolean };

/** Whether a role's stored field still holds what the migrations seeded (not changed by an administrator). */
function seededField(role: RoleTexts, field: 'name' | 'description'): SeededRoleCode | undefined {
  if (role.builtin === false || !Object.hasOwn(SEEDED_ROLES, role.code)) return undefined;
  const code = role.code as SeededRoleCode;
  return SEEDED_ROLES[code][field] === role[field] ? code : undefined;
}

/**
 * A role's name and description as the user reads them: a built-in role in the user's language while its
 * stored text is the seeded English one; whatever an administrator wrote, as written.
 */
export function useRoleText(): {
  name: (role: RoleTexts) => string;
  description: (role: RoleTexts) => string;
} {
  const { t } = useTranslation();
  const name = useCallback(
    (role: RoleTexts) => {
      const code = seededField(role, 'name');
      return code ? t(`admin.role.seeded.${code}.name`) : role.name;
    },
    [t],
  );
  const description = useCallback(
    (role: RoleTexts) => {
      const code = seededField(role, 'description');
      return code ? t(`admin.role.seeded.${code}.description`) : (role.description ?? '');
    },
    [t],
  );
  return { name, description };
}
