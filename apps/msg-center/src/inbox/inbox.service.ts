import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { SERVICE_CONFIG } from '@voltdepot/server-core';
import { InboxMessageDto, InboxPush, STOMP_INBOX_TOPIC } from '@voltdepot/shared-contracts';
import type { EntityManager } from 'typeorm';
import type { MsgCenterConfig } from '../app.config';
import { formatBusinessTime } from '../shared/business-time';
import { PushPublisher } from '../stomp/push.publisher';
import { StompHandlerRegistry } from '../stomp/stomp-handlers';
import { InboxRepository, InboxRow, NewInboxMessage } from './inbox.repository';

/** Most unread messages pushed at once on connect. */
const UNREAD_PUSH_LIMIT = 100;

/** The in-app inbox: rows per user, pushed to the user's STOMP sessions on /user/topic/m1/msg/inbox. */
@Injectable()
export class InboxService implements OnModuleInit {
  constructor(
    private readonly inbox: InboxRepository,
    private readonly push: PushPublisher,
    private readonly handlers: StompHandlerRegistry,
    @Inject(SERVICE_CONFIG) private readonly config: Pick<MsgCenterConfig, 'BUSINESS_TIME_ZONE'>,
  ) {}

  onModuleInit(): void {
    // A client SENDing { "handler": "inbox.unread" } gets its unread messages pushed, like GET inbox/unread.
    this.handlers.register('inbox.unread', async (caller) => {
      await this.unread(caller.userId);
    });
  }

  toDto(row: InboxRow): InboxMessageDto {
    return {
      id: row.id,
      title: row.title,
      content: row.content,
      sender: row.sender,
      sendTime: formatBusinessTime(row.sendTime, this.config.BUSINESS_TIME_ZONE),
      isRead: row.isRead,
    };
  }

  async page(userId: number, range: { start?: Date; end?: Date }, page: number, size: number) {
    const { list, total } = await this.inbox.page(userId, range, page, size);
    return { list: list.map((row) => this.toDto(row)), total };
  }

  /** Unread messages of the caller, also pushed to every session of the caller. */
  async unread(userId: number): Promise<InboxMessageDto[]> {
    const list = (await this.inbox.unread(userId, UNREAD_PUSH_LIMIT)).map((row) => this.toDto(row));
    const body: InboxPush = { handler: 'inbox.unread', command: 'unread', data: list };
    await this.push.toUsers([userId], STOMP_INBOX_TOPIC, body);
    return list;
  }

  markRead(userId: number, ids: number[] | 'all'): Promise<number> {
    return this.inbox.markRead(userId, ids);
  }

  delete(userId: number, ids: number[]): Promise<number> {
    return this.inbox.delete(userId, ids);
  }

  /** Stores a message for each user (once per dedupe key), inside `manager`'s transaction when given. */
  store(userIds: number[], message: NewInboxMessage, manager?: EntityManager): Promise<InboxRow[]> {
    return this.inbox.insertMany(userIds, message, manager);
  }

  /** Pushes freshly stored rows to their owners. Call after the storing transaction committed. */
  async pushNew(rows: InboxRow[]): Promise<void> {
    if (rows.length === 0) return;
    await this.push.toEach(
      STOMP_INBOX_TOPIC,
      rows.map((row) => {
        const body: InboxPush = { handler: 'inbox.new', command: 'new', data: this.toDto(row) };
        return { userId: row.userId, body };
      }),
    );
  }
}
