import { Injectable } from '@nestjs/common';
import { OutboundGuard } from '@voltdepot/server-core';
import nodemailer from 'nodemailer';
import type { ConfigRow } from '../../configs/config.repository';
import type { SendMessageJob } from '../../jobs/send-message.job';
import { ChannelError, ChannelSender, requireConfig, setting } from '../channel-sender';

/** SMTP through nodemailer. Settings: host, port, secure?, user?, password?, from. */
@Injectable()
export class EmailSender implements ChannelSender {
  readonly channel = 1 as const;
  readonly jobName = 'send.email' as const;

  constructor(private readonly outbound: OutboundGuard) {}

  async send(job: SendMessageJob, maybeConfig: ConfigRow | undefined): Promise<void> {
    const config = requireConfig(maybeConfig, 'EMAIL');
    const user = config.settings['user'];
    const host = setting(config, 'host');
    // The server a user configured: connect to the address the outbound rules checked, by its name for TLS.
    let address: string;
    try {
      [{ address }] = await this.outbound.resolveAllowed(host);
    } catch (error) {
      throw new ChannelError(`SMTP server refused: ${(error as Error).message}`);
    }
    const transport = nodemailer.createTransport({
      host: address,
      tls: { servername: host },
      port: Number(setting(config, 'port')),
      secure: config.settings['secure'] === true,
      ignoreTLS: config.settings['ignoreTLS'] === true,
      auth: user ? { user: String(user), pass: String(config.settings['password'] ?? '') } : undefined,
      connectionTimeout: 10_000,
      socketTimeout: 30_000,
      logger: false,
    });
    try {
      await transport.sendMail({
        from: setting(config, 'from'),
        to: job.receiver.address,
        subject: job.title,
        html: job.html,
        text: job.text,
        // Stable per job: a receiving system can recognise a retry of the same message.
        messageId: `<${job.jobId}@voltdepot.msg-center>`,
      });
    } catch (error) {
      const e = error as { responseCode?: number; response?: string; message: string };
      throw new ChannelError(`SMTP ${e.responseCode ?? ''} ${e.response ?? e.message}`.trim());
    } finally {
      transport.close();
    }
  }
}
