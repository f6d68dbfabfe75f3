import { createContext, useContext } from "react";

/** The CSP nonce, for the few inline scripts the document needs. */
const NonceContext = createContext("");

export const NonceProvider = NonceContext.Provider;

export function useNonce(): string {
  return useContext(NonceContext);
}
