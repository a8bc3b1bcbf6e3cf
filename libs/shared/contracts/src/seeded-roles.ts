/**
 * The built-in roles the migrations seed, with the name and description they are seeded with (English,
 * stored as data). The console shows a built-in role in the user's language while its stored text is
 * still the seeded one, and the stored text once an administrator has changed it;
 * seeded-roles.int-spec.ts checks this list against a database with every migration applied.
 */
export const SEEDED_ROLES = {
  admin: { name: 'Administrator', description: 'Everything, every organisation' },
  operator: {
    name: 'Operator staff',
    description: 'Operations, monitoring and business data; reads users and organisations',
  },
  maintainer: { name: 'Maintenance staff', description: 'Equipment, alarms and work orders' },
  fleet_manager: {
    name: 'Fleet manager',
    description: 'Vehicles, reports and data mining of the own organisation',
  },
} as const satisfies Record<string, { name: string; description: string }>;

export type SeededRoleCode = keyof typeof SEEDED_ROLES;
