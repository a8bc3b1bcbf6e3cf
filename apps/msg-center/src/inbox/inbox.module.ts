import { Module } from '@nestjs/common';
import { InboxRepository } from './inbox.repository';
import { InboxService } from './inbox.service';

/** Inbox storage and pushes (no HTTP): shared by the HTTP service and the worker. */
@Module({ providers: [InboxRepository, InboxService], exports: [InboxService] })
export class InboxCoreModule {}
