import { UNSAFE_ErrorResponseImpl as ErrorResponse } from "react-router-dom";
import { afterEach, describe, expect, it, vi } from "vitest";
import { handleError } from "./entry.server";

afterEach(() => vi.restoreAllMocks());

const post = (path: string) => new Request(`http://localhost${path}`, { method: "POST", headers: { "x-request-id": "r1" } });

describe("the server's error log", () => {
  it("leaves out Remix's answers to the client's own request (a POST to a page without an action: 405)", () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    handleError(new ErrorResponse(405, "Method Not Allowed", null), { request: post("/nope") });
    handleError(new ErrorResponse(404, "Not Found", null), { request: post("/nope") });
    expect(errors).not.toHaveBeenCalled();
  });

  it("logs a real error with the request it served", () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const error = new Error("boom");
    handleError(error, { request: post("/settings") });
    handleError(new ErrorResponse(500, "Internal Server Error", null), { request: post("/settings") });
    expect(errors).toHaveBeenCalledWith("Unhandled error in POST /settings (request r1):", error);
    expect(errors).toHaveBeenCalledTimes(2);
  });
});
