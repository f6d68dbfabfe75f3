import { takeToast } from "./toast.server";

/** For tests of actions: the toast an answer's redirect carries, as the next page reads it. */
export async function toastOf(answer: Response): Promise<string | undefined> {
  const cookie = answer.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  return (await takeToast(new Request("http://console.test/", { headers: { cookie } }))).toast?.message;
}
