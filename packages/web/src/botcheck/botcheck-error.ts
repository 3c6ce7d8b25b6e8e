/** Why the bot-check gave no token: the shopper can retry in each case, and nothing is submitted. */
export class BotcheckError extends Error {
  constructor(readonly code: 'botcheck_anchor_timeout' | 'botcheck_execute_timeout' | 'botcheck_unavailable') {
    super(code);
    this.name = 'BotcheckError';
  }
}
