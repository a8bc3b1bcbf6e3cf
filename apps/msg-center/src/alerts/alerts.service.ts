import { Inject, Injectable, Logger } from '@nestjs/common';
import { OutboundGuard, SERVICE_CONFIG, ValidationException } from '@voltdepot/server-core';
import {
  GridPage,
  JobType,
  MsgAlertDto,
  MsgErrorCodes,
  PrometheusTargetGroup,
} from '@voltdepot/shared-contracts';
import type { MsgCenterConfig } from '../app.config';
import { GroupsService } from '../groups/groups.service';
import { PageParams, withBusinessTimes } from '../shared/grid';
import { MsgException } from '../shared/msg.exception';
import { TemplatesService } from '../templates/templates.service';
import type { AlertBody, AlertQuery } from './alert.dto';
import { AlertRepository, AlertRow } from './alert.repository';
import { parseAlertTarget, targetHosts, targetProblem } from './evaluation/alert-target';
import { alertTargetGroup, jobTypeOf, platformTargets, prometheusTargets } from './prometheus-targets';

type AlertsConfig = Pick<
  MsgCenterConfig,
  | 'BUSINESS_TIME_ZONE'
  | 'DATABASE_URL'
  | 'REDIS_URL'
  | 'KAFKA_BROKERS'
  | 'MSG_PROMETHEUS_URL'
  | 'MSG_ALERT_TIMEOUT_MS'
>;

@Injectable()
export class AlertsService {
  private readonly logger = new Logger('AlertsService');

  constructor(
    @Inject(AlertRepository)
    private readonly alerts: Pick<
      AlertRepository,
      'page' | 'find' | 'enabled' | 'insert' | 'update' | 'delete'
    >,
    @Inject(TemplatesService) private readonly templates: Pick<TemplatesService, 'get'>,
    @Inject(GroupsService) private readonly groups: Pick<GroupsService, 'get'>,
    @Inject(SERVICE_CONFIG) private readonly config: AlertsConfig,
    @Inject(OutboundGuard) private readonly outbound: Pick<OutboundGuard, 'problemAtSave'>,
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

  /**
   * Prometheus HTTP service discovery for a job (a job type such as NODE, or a Prometheus job name): the
   * platform's own infrastructure, the targets of the enabled alerts of that job type, and, when a
   * Prometheus is configured, its active targets of that job. Without `job`, every target.
   */
  async prometheusTargets(job: string | undefined): Promise<PrometheusTargetGroup[]> {
    const brokers = this.config.KAFKA_BROKERS ?? [];
    const groups = platformTargets(
      { databaseUrl: this.config.DATABASE_URL, redisUrl: this.config.REDIS_URL, kafkaBrokers: brokers },
      job,
    );
    const jobType = jobTypeOf(job);
    if (job === undefined || jobType !== undefined) {
      for (const alert of await this.alerts.enabled(jobType)) {
        const group = alertTargetGroup(alert, brokers);
        if (group !== undefined) groups.push(group);
      }
    }
    if (this.config.MSG_PROMETHEUS_URL !== undefined) {
      try {
        groups.push(
          ...(await prometheusTargets(this.config.MSG_PROMETHEUS_URL, job, this.config.MSG_ALERT_TIMEOUT_MS)),
        );
      } catch (error) {
        // Discovery keeps answering with what the platform knows; the operator sees the reason in the log.
        this.logger.warn(`Prometheus targets unavailable: ${(error as Error).message}`);
      }
    }
    return groups;
  }

  private async references(body: AlertBody): Promise<void> {
    const problem = body.target.startsWith('promql:')
      ? this.config.MSG_PROMETHEUS_URL === undefined
        ? 'promql: targets need a Prometheus (MSG_PROMETHEUS_URL is not configured)'
        : targetProblem(body.jobType as JobType, body.target)
      : targetProblem(body.jobType as JobType, body.target, this.config.KAFKA_BROKERS ?? []);
    if (problem !== undefined) throw new ValidationException([{ field: 'target', message: problem }]);
    // Checked again whenever the target is measured: a name may resolve elsewhere later.
    const brokers = this.config.KAFKA_BROKERS ?? [];
    for (const host of targetHosts(parseAlertTarget(body.jobType as JobType, body.target, brokers))) {
      const refused = await this.outbound.problemAtSave(host);
      if (refused !== undefined) throw new ValidationException([{ field: 'target', message: refused }]);
    }
    if (body.templateId != null) await this.templates.get(body.templateId);
    if (body.groupId != null) await this.groups.get(body.groupId);
  }
}
