import { Alert } from "~/components/Alert";
import { formatDateTime } from "~/lib/datetime";
import { rechargeDeclinedText, rechargePausedText } from "./recharge";

/** Shown on /billing while automatic recharges are refused (the daily limit), until a charge succeeds. */
export function RechargePausedBanner({ paused, timeZone }: { paused: { at: string; reason: string }; timeZone: string }) {
  return (
    <Alert kind="warning">
      <span>
        {rechargePausedText(paused.reason)} <span className="text-sm opacity-80">Since {formatDateTime(paused.at, timeZone)}.</span>
      </span>
    </Alert>
  );
}

/** Shown on /billing when the last automatic recharge failed and nothing was paid since (a declined card). */
export function RechargeDeclinedBanner({ declined, timeZone }: { declined: { at: string; amount: number }; timeZone: string }) {
  return (
    <Alert kind="warning">
      <span>
        {rechargeDeclinedText(declined.amount)} <span className="text-sm opacity-80">At {formatDateTime(declined.at, timeZone)}.</span>
      </span>
    </Alert>
  );
}
