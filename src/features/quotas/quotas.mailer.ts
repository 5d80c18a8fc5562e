import nodemailer from 'nodemailer';
import type { Config } from '../../config.js';

export interface QuotaMail {
  clientName: string;
  month: string;
  threshold: number;
  used: number;
  quota: number;
}

export type Mailer = (mail: QuotaMail) => Promise<void>;

/** Sends quota notices through the configured SMTP server (nodemailer); undefined without SMTP_URL or recipients. */
export function createMailer(config: Config): Mailer | undefined {
  const { smtp } = config;
  const to = config.quotas.noticeEmailTo;
  if (!smtp || to.length === 0) return undefined;
  const transport = nodemailer.createTransport(smtp.url);
  return async (m) => {
    const what = m.threshold >= 100 ? 'has reached its quota' : `has used ${m.threshold} % of its quota`;
    await transport.sendMail({
      from: smtp.from,
      to: [...to],
      subject: `Placet: ${m.clientName} ${what} (${m.month})`,
      text:
        `The client ${m.clientName} ${what} of widget calls for ${m.month} (UTC): ${m.used} of ${m.quota}.\n` +
        (m.threshold >= 100 ? 'Visitors now see no banner until the quota is raised, reset or the month ends.\n' : ''),
    });
  };
}
