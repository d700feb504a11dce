/** Alerts (SPEC §17): channels, rules, incidents, the alert log and their sends. */
export * from './contract';
export { listAlertChannels, getAlertChannel, createAlertChannel, updateAlertChannel, deleteAlertChannel, alertChannelUses, type ChannelRuleUse, testAlertChannel, toAlertChannel, type ChannelScope, type ChannelSaveOptions } from './channels';
export { listAlertRules, createAlertRule, updateAlertRule, deleteAlertRule, listAlerts, failingAlertChannels, anyAlertChannelFailing, alertChannelChoices, ALERTS_PAGE_SIZE, endAlertingOfDeletedSchedules } from './rules';
export { raiseAlerts, type AlertFact } from './raise';
export { checkSilence, realertIncidents, sweepAlerts } from './checks';
export { sendDueAlerts, alertRetryDelayMs, ALERT_RETRY_WINDOW_MS, ALERT_SEND_LEASE_MS, ALERT_SENDS_PER_CHANNEL, type AlertSendReport } from './sends';
export { renderAlert, scheduleLink, zonedAndUtc, type AlertFacts, type RenderedAlert } from './message';
export { deliverToChannel, type AlertDeliveryDeps, type ChannelAnswer } from './deliver';
