/** SPEC §8's billing texts, word for word. */
export const SETUP_MESSAGES = {
  setupFailed: "Failed to setup payment method",
  noClientSecret: "No client secret returned",
  setupThrew: "Failed to setup payment method. Please try again.",
  addFailed: "Failed to add payment method. Please try again.",
  updateFailed: "Failed to update billing information. Please contact support.",
  initFailed: "Failed to initialize billing. Please try again later.",
  unexpected: "An unexpected error occurred",
  added: "Payment method added successfully.",
} as const;

export const BILLING_MESSAGES = {
  noPaymentMethod: "No Payment Method: Your organization does not have a payment method set up.",
  balanceFailed: "Failed to load current balance.",
  // Not in SPEC §8: the console's own words when GET /billing/config fails (app/platform/billing.server.ts).
  configFailed: "Failed to load billing configuration.",
  ledgerFailed: "Failed to load ledger activity.",
  emptyLedger: "No recent activity.",
  addFundsFailed: "Adding funds failed",
  addFundsOk: "Adding funds successful! Balance will update shortly.",
  autoPaymentFailed: "Failed to save auto-payment settings",
  autoPaymentOk: "Auto-payment settings updated successfully.",
  // Issue 14 (decision 0091): auto-reload on, but no card to charge.
  autoReloadPaused: "Paused: there is no payment method to charge. Add one to resume it, or turn auto-reload off.",
  removeFailed: "Failed to remove payment method",
  removeOk: "Payment method removed successfully.",
  removeQuestion: "Are you sure you want to remove your payment method?",
} as const;

/** The console's resource route that starts and records a card setup for the browser. */
export const SETUP_ENDPOINT = "/billing/setup-intent";
