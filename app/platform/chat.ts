/** The chat wire is the contract's. */
export { chatSendSchema, receiptSchema } from "@contract/chat";
export type { Receipt } from "@contract/chat";
