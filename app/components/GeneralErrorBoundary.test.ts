import { describe, expect, it } from "vitest";
import { friendlyError } from "./GeneralErrorBoundary";

describe("the error boundary's words", () => {
  it("map statuses to friendly messages, anything else to a generic one", () => {
    expect(friendlyError(404)).toEqual({ title: "Page not found", text: "We couldn't find that page." });
    expect(friendlyError(403).text).toBe("You don't have access to this page.");
    // A post to a page that takes none is the request's doing, not "something went wrong on our side".
    expect(friendlyError(405)).toEqual({ title: "Not available here", text: "This page doesn't take that request. Go back and try again from the page." });
    expect(friendlyError(418)).toEqual(friendlyError(500));
  });
});
