import { describe, expect, it } from "vitest";
import { canManageMember, roleLabel, ROLE_OPTIONS } from "./member-rules";

describe("canManageMember", () => {
  it("lets an admin manage other members only", () => {
    expect(canManageMember({ userId: 1, role: "admin" }, { id: 2 })).toBe(true);
    expect(canManageMember({ userId: 1, role: "admin" }, { id: 1 })).toBe(false);
  });
  it("never lets a member manage anyone", () => {
    expect(canManageMember({ userId: 1, role: "member" }, { id: 2 })).toBe(false);
    expect(canManageMember({ userId: 1, role: "member" }, { id: 1 })).toBe(false);
  });
});

describe("roles", () => {
  it("are offered as Member and Admin", () => {
    expect(ROLE_OPTIONS.map((o) => o.label)).toEqual(["Member", "Admin"]);
    expect(roleLabel("admin")).toBe("Admin");
  });
});
