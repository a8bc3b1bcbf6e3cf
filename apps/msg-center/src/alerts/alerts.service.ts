import { Inject, Injectable } from '@nestjs/common';
import { SERVICE_CONFIG } from '@voltdepot/server-core';
import { GridPage, MsgAlertDto, MsgErrorCodes, PrometheusTargetGroup } from '@voltdepot/shared-contracts';
import type { MsgCenterConfig } from '../app.config';
import { GroupsService } from '../groups/groups.service';
import { PageParams, withBusinessTimes } from '../shared/grid';
import { MsgException } from '../shared/msg.exception';
import { TemplatesService } from '../templates/templates.service';
import type { AlertBody, AlertQuery } from './alert.dto';
import { AlertRepository, AlertRow } from './alert.repository';

@Injectable()
export class AlertsService {
  constructor(
    private readonly alerts: AlertRepository,
    private readonly templates: TemplatesService,
    private readonly groups: GroupsService,
    @Inject(SERVICE_CONFIG) private readonly config: Pick<MsgCenterConfig, 'BUSINESS_TIME_ZONE'>,
  ) {}

  async page(query: AlertQuery, page: PageParams): Promise<GridPage<MsgAlertDto>> {
    const result = await this.alerts.page(query, page);
    return {
      list: result.list.map(
        (r) => withBusinessTimes(r, this.config.BUSINESS_TIME_ZONE) as unknown as MsgAlertDto,
      ),
      total: result.total,
    };
  }

  async get(id: number): Promise<AlertRow> {
    const row = await this.alerts.find(id);
    if (row === undefined) throw new MsgException(MsgErrorCodes.AlertNotFound, `Alert ${id} does not exist`);
    return row;
  }

  async create(body: AlertBody, username: string): Promise<{ id: number }> {
    await this.references(body);
    return { id: await this.alerts.insert(body, username) };
  }

  async update(id: number, body: AlertBody, username: string): Promise<{ id: number }> {
    await this.get(id);
    await this.references(body);
    await this.alerts.update(id, body, username);
    return { id };
  }

  async delete(id: number): Promise<boolean> {
    await this.get(id);
    await this.alerts.delete(id);
    return true;
  }

  /** Prometheus HTTP service discovery: one target group per enabled alert of the job type. */
  async prometheusTargets(job: string | undefined): Promise<PrometheusTargetGroup[]> {
    const alerts = await this.alerts.enabled(job?.toUpperCase());
    return alerts.map((a) => ({
      targets: [a.target.replace(/^https?:\/\//, '').split('/')[0]],
      labels: { job: a.jobType.toLowerCase(), alert: a.name, alert_group: a.alertGroup, level: a.level },
    }));
  }

  private async references(body: AlertBody): Promise<void> {
    if (body.templateId != null) await this.templates.get(body.templateId);
    if (body.groupId != null) await this.groups.get(body.groupId);
  }
}
