import { MessageSquarePlus } from "lucide-react";
import { Popover, PopoverClose } from "~/components/Popover";

export const NEW_CHAT_QUESTION = "Start a new chat? This conversation is not saved anywhere, so it is gone once cleared.";

/**
 * Clears the conversation, after a question: messages live only in the page (SPEC §4), so what is
 * cleared cannot be brought back. `disabled` while a reply comes (Stop first): the button and an open
 * question stay, so focus stays too, but nothing can be cleared from under the reply.
 */
export function NewChatButton({ onConfirm, disabled }: { onConfirm: () => void; disabled: boolean }) {
  return (
    <Popover
      trigger={
        <>
          <MessageSquarePlus className="size-4" aria-hidden /> New chat
        </>
      }
      triggerClassName="btn btn-ghost btn-sm"
      triggerDisabled={disabled}
      role="alertdialog"
      label={NEW_CHAT_QUESTION}
      focusFirstButton
      className="mt-2 w-80 rounded-box border border-base-300 bg-base-100 p-4 text-left shadow-lg"
    >
      <p className="mb-3 text-sm font-normal whitespace-normal">{NEW_CHAT_QUESTION}</p>
      <div className="flex justify-end gap-2">
        <PopoverClose className="btn btn-ghost btn-sm">Cancel</PopoverClose>
        <PopoverClose className="btn btn-sm btn-error" onClick={onConfirm} disabled={disabled}>
          Clear chat
        </PopoverClose>
      </div>
    </Popover>
  );
}
