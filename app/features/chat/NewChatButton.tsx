import { MessageSquarePlus } from "lucide-react";
import { Popover, PopoverClose } from "~/components/Popover";

export const NEW_CHAT_QUESTION = "Start a new chat? This conversation is not saved anywhere, so it is gone once cleared.";

/**
 * Clears the conversation, after a question: messages live only in the page (SPEC §4), so what is
 * cleared cannot be brought back.
 */
export function NewChatButton({ onConfirm }: { onConfirm: () => void }) {
  return (
    <Popover
      trigger={
        <>
          <MessageSquarePlus className="size-4" aria-hidden /> New chat
        </>
      }
      triggerClassName="btn btn-ghost btn-sm"
      role="alertdialog"
      label={NEW_CHAT_QUESTION}
      focusFirstButton
      className="mt-2 w-80 rounded-box border border-base-300 bg-base-100 p-4 text-left shadow-lg"
    >
      <p className="mb-3 text-sm font-normal whitespace-normal">{NEW_CHAT_QUESTION}</p>
      <div className="flex justify-end gap-2">
        <PopoverClose className="btn btn-ghost btn-sm">Cancel</PopoverClose>
        <PopoverClose className="btn btn-sm btn-error" onClick={onConfirm}>
          Clear chat
        </PopoverClose>
      </div>
    </Popover>
  );
}
