import { describe, expect, it } from "vitest";
import {
  DAY_MS,
  DEFAULT_EXPIRY,
  EXPIRY_CHOICES,
  expiresAtFor,
  expiryWarningText,
  hasExpiryWarning,
  isExpiryChoice,
  sortTokens,
  tokenStatus,
} from "./token-rules";

const NOW = Date.UTC(2025, 5, 1, 12, 0, 0);
const token = (publicId: string, over: Partial<{ expiresAt: number | null; revoked: boolean; createdAt: number; primary: boolean }> = {}) => ({
  publicId,
  expiresAt: null,
  revoked: false,
  createdAt: NOW - DAY_MS,
  primary: false,
  ...over,
});

describe("tokenStatus", () => {
  it("is revoked if revoked, whatever the expiry", () => {
    expect(tokenStatus({ revoked: true, expiresAt: null }, NOW)).toBe("revoked");
    expect(tokenStatus({ revoked: true, expiresAt: NOW - DAY_MS }, NOW)).toBe("revoked");
  });
  it("is expired when expiresAt is in the past (or now), else active", () => {
    expect(tokenStatus({ revoked: false, expiresAt: NOW - 1 }, NOW)).toBe("expired");
    expect(tokenStatus({ revoked: false, expiresAt: NOW }, NOW)).toBe("expired");
    expect(tokenStatus({ revoked: false, expiresAt: NOW + 1 }, NOW)).toBe("active");
    expect(tokenStatus({ revoked: false, expiresAt: null }, NOW)).toBe("active");
  });
});

describe("the 7-day warning window", () => {
  it("covers tokens expiring within the next 7 days, boundary included", () => {
    expect(hasExpiryWarning({ revoked: false, expiresAt: NOW + 1 }, NOW)).toBe(true);
    expect(hasExpiryWarning({ revoked: false, expiresAt: NOW + 7 * DAY_MS }, NOW)).toBe(true);
    expect(hasExpiryWarning({ revoked: false, expiresAt: NOW + 7 * DAY_MS + 1 }, NOW)).toBe(false);
    expect(expiryWarningText({ revoked: false, expiresAt: NOW + DAY_MS }, NOW)).toBe("Expires within 7 days");
  });
  it("covers tokens expired within the last 7 days, boundary included", () => {
    expect(hasExpiryWarning({ revoked: false, expiresAt: NOW - 1 }, NOW)).toBe(true);
    expect(hasExpiryWarning({ revoked: false, expiresAt: NOW - 7 * DAY_MS }, NOW)).toBe(true);
    expect(hasExpiryWarning({ revoked: false, expiresAt: NOW - 7 * DAY_MS - 1 }, NOW)).toBe(false);
    expect(expiryWarningText({ revoked: false, expiresAt: NOW - DAY_MS }, NOW)).toBe("Expired within the last 7 days");
  });
  it("never applies to tokens that don't expire or are revoked", () => {
    expect(hasExpiryWarning({ revoked: false, expiresAt: null }, NOW)).toBe(false);
    expect(hasExpiryWarning({ revoked: true, expiresAt: NOW + DAY_MS }, NOW)).toBe(false);
    expect(expiryWarningText({ revoked: true, expiresAt: NOW + DAY_MS }, NOW)).toBeNull();
  });
});

describe("sortTokens", () => {
  it("orders expiring or recently expired, then other active, then revoked, then the rest, a primary token included", () => {
    const tokens = [
      token("long-expired", { expiresAt: NOW - 30 * DAY_MS }),
      token("revoked", { revoked: true, expiresAt: NOW + DAY_MS }),
      token("active-never", { expiresAt: null, createdAt: NOW - 3_600_000 }),
      token("recently-expired", { expiresAt: NOW - 2 * DAY_MS }),
      token("active-later", { expiresAt: NOW + 20 * DAY_MS }),
      token("expiring-soon", { expiresAt: NOW + 3 * DAY_MS }),
      token("primary", { primary: true, createdAt: NOW - 100 * DAY_MS }),
    ];
    expect(sortTokens(tokens, NOW).map((t) => t.publicId)).toEqual([
      "recently-expired",
      "expiring-soon",
      "primary",
      "active-never",
      "active-later",
      "revoked",
      "long-expired",
    ]);
  });

  it("puts the soonest expiry first inside the warning group and the newest first elsewhere", () => {
    const tokens = [
      token("soon-b", { expiresAt: NOW + 5 * DAY_MS }),
      token("soon-a", { expiresAt: NOW - DAY_MS }),
      token("old", { createdAt: NOW - 10 * DAY_MS }),
      token("new", { createdAt: NOW - DAY_MS }),
      token("revoked-old", { revoked: true, createdAt: NOW - 10 * DAY_MS }),
      token("revoked-new", { revoked: true, createdAt: NOW - DAY_MS }),
    ];
    expect(sortTokens(tokens, NOW).map((t) => t.publicId)).toEqual(["soon-a", "soon-b", "new", "old", "revoked-new", "revoked-old"]);
  });

  it("never pins the primary token above tokens expiring within 7 days", () => {
    const tokens = [
      token("primary", { primary: true, createdAt: NOW - DAY_MS }),
      token("expiring", { expiresAt: NOW + 2 * DAY_MS, createdAt: NOW - 20 * DAY_MS }),
      token("newer-active", { createdAt: NOW }),
    ];
    expect(sortTokens(tokens, NOW).map((t) => t.publicId)).toEqual(["expiring", "primary", "newer-active"]);
  });

  it("sorts a primary token that expires soon, or is revoked, with its group", () => {
    const tokens = [
      token("active", { createdAt: NOW }),
      token("primary-soon", { primary: true, expiresAt: NOW + 6 * DAY_MS }),
      token("revoked-primary", { primary: true, revoked: true }),
      token("revoked", { revoked: true, createdAt: NOW }),
    ];
    expect(sortTokens(tokens, NOW).map((t) => t.publicId)).toEqual(["primary-soon", "active", "revoked-primary", "revoked"]);
  });

  it("does not change the list it is given", () => {
    const tokens = [token("b", { revoked: true }), token("a")];
    sortTokens(tokens, NOW);
    expect(tokens.map((t) => t.publicId)).toEqual(["b", "a"]);
  });
});

describe("expiry conversion", () => {
  it("offers 1, 7 or 30 days (default 30) or never", () => {
    expect(EXPIRY_CHOICES.map((c) => c.label)).toEqual(["1 day", "7 days", "30 days", "Never"]);
    expect(DEFAULT_EXPIRY).toBe("30");
  });
  it("turns a choice into epoch milliseconds from now, or null for never", () => {
    expect(expiresAtFor("1", NOW)).toBe(NOW + 86_400_000);
    expect(expiresAtFor("7", NOW)).toBe(NOW + 7 * 86_400_000);
    expect(expiresAtFor("30", NOW)).toBe(NOW + 30 * 86_400_000);
    expect(expiresAtFor("never", NOW)).toBeNull();
  });
  it("recognises only the offered choices", () => {
    expect(isExpiryChoice("7")).toBe(true);
    expect(isExpiryChoice("14")).toBe(false);
    expect(isExpiryChoice(null)).toBe(false);
  });
});
