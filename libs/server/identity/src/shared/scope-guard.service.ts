import { Inject, Injectable } from '@nestjs/common';
import { IdentityErrorCodes } from '@voltdepot/shared-contracts';
import { IdentityException } from '../identity.exception';
import { DataScope, DataScopeService } from './data-scope';
import { OrganizationLookupRepository } from './organization-lookup.repository';

/** Checks that organisations named in a request exist and lie inside the caller's data scope. */
@Injectable()
export class OrganizationAccess {
  constructor(
    @Inject(OrganizationLookupRepository)
    private readonly orgs: Pick<OrganizationLookupRepository, 'pathsOf'>,
  ) {}

  async assertInScope(scope: DataScope, organizationIds: number[], field = 'organizationId'): Promise<void> {
    const unique = [...new Set(organizationIds)];
    const paths = await this.orgs.pathsOf(unique);
    const unknown = unique.filter((id) => !paths.has(id));
    if (unknown.length > 0) {
      throw new IdentityException(
        IdentityErrorCodes.OrganizationNotFound,
        `Organization ${unknown.join(', ')} does not exist`,
        [{ field, message: `Unknown organization ${unknown.join(', ')}` }],
      );
    }
    const outside = unique.filter((id) => !DataScopeService.contains(scope, paths.get(id)!));
    if (outside.length > 0) {
      throw new IdentityException(
        IdentityErrorCodes.OutOfDataScope,
        `Organization ${outside.join(', ')} is outside your data scope`,
        [{ field, message: `Organization ${outside.join(', ')} is outside your data scope` }],
      );
    }
  }
}
