import { request } from "@playwright/test";
import { OPERATOR, signInWithRequests } from "./auth";

/** The first user ever to sign in becomes the system admin (DESIGN §3): make that the operator. */
export default async function globalSetup() {
  const context = await request.newContext({ baseURL: process.env.E2E_BASE_URL });
  await signInWithRequests(context, OPERATOR);
  await context.dispose();
}
