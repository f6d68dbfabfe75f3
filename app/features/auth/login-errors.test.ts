import { describe, expect, it } from "vitest";
import { loginErrorMessage } from "./login-errors";

describe("login error messages", () => {
  it("explains each code the platform sends, and has a default", () => {
    expect(loginErrorMessage(null)).toBeNull();
    expect(loginErrorMessage("github_unavailable")).toBe("Sign-in with GitHub is not configured on this server.");
    expect(loginErrorMessage("signin_state")).toMatch(/expired or did not match/);
    expect(loginErrorMessage("signin_rate_limited")).toMatch(/^Too many sign-in attempts/);
    expect(loginErrorMessage("whatever")).toBe("Sign-in failed. Please try again.");
    for (const inherited of ["__proto__", "constructor", "toString"]) expect(loginErrorMessage(inherited)).toBe("Sign-in failed. Please try again.");
  });
});
