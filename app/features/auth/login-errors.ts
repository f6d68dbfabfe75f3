/** Messages for the `error` codes the platform's sign-in routes send back to /login. */
const messages: Record<string, string> = {
  google_unavailable: "Sign-in with Google is not configured on this server.",
  github_unavailable: "Sign-in with GitHub is not configured on this server.",
  signin_state: "Sign-in could not be completed because the request expired or did not match. Please try again.",
  signin_code: "Sign-in could not be completed because the sign-in code was invalid or already used. Please try again.",
  signin_failed: "Sign-in failed because the identity provider could not be reached. Please try again.",
  signin_denied: "Sign-in was cancelled.",
  signin_no_email: "Your account has no email address we can use.",
  signin_rate_limited: "Too many sign-in attempts from this address. Please wait a minute and try again.",
};

export function loginErrorMessage(code: string | null): string | null {
  if (!code) return null;
  // Own keys only: `?error=__proto__` (or `constructor`) would read the object's prototype, not a message.
  return Object.hasOwn(messages, code) ? messages[code] : "Sign-in failed. Please try again.";
}
