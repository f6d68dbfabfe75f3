import { Ban } from "lucide-react";
import type { ActiveInvite } from "@contract/orgs";
import { ConfirmAction } from "~/components/ConfirmAction";
import { Pager, rowsShown } from "~/components/Pager";
import type { KeysetPage } from "~/lib/keyset-page";
import type { TeamQuery } from "./team-query";
import { teamHref } from "./team-query";
import { CopyButton } from "~/components/CopyButton";
import { TableRegion } from "~/components/TableRegion";
import { formatDateTime } from "~/lib/datetime";
import { INVITE_KIND_LABEL, usesText } from "./invite-forms";

/**
 * Every code that still works (issue 14), newest first, a page at a time: kind, maker, time, uses,
 * limits, and Revoke after a confirmation.
 */
export function InviteList({ page, query, timeZone }: { page: KeysetPage<ActiveInvite>; query: TeamQuery; timeZone: string }) {
  const invites = page.rows;
  const paged = page.next !== null || page.previous !== null;
  return (
    <section className="card bg-base-100 shadow-sm" aria-labelledby="invites-title">
      <div className="card-body">
        <h2 id="invites-title" className="card-title">
          {/* A count only when it is all of them, as for the members. */}
          Active invite codes {paged ? null : <span className="badge badge-ghost">{invites.length}</span>}
        </h2>
        {invites.length === 0 ? (
          <p className="text-base-content/70">No active invite codes.</p>
        ) : (
          <TableRegion label="Invite codes table">
            <table className="table">
              <thead>
                <tr>
                  <th>Code</th>
                  <th>Kind</th>
                  <th>Created by</th>
                  <th>Created</th>
                  <th>Uses</th>
                  <th>Expires</th>
                  <th className="text-right">Actions</th>
                </tr>
              </thead>
              <tbody>
                {invites.map((invite) => (
                  <tr key={invite.id}>
                    <td>
                      <div className="flex items-center gap-1">
                        <code className="font-mono tracking-wider">{invite.code}</code>
                        <CopyButton text={invite.code} label="Copy" subject={`code ${invite.code}`} className="btn btn-xs btn-ghost" />
                      </div>
                    </td>
                    <td className="whitespace-nowrap">{INVITE_KIND_LABEL[invite.kind]}</td>
                    <td>{invite.createdBy.name}</td>
                    <td className="whitespace-nowrap">{formatDateTime(invite.createdAt, timeZone)}</td>
                    <td className="whitespace-nowrap">{usesText(invite.uses, invite.maxUses)}</td>
                    <td className="whitespace-nowrap">{invite.expiresAt === null ? "Never" : formatDateTime(invite.expiresAt, timeZone)}</td>
                    <td className="text-right">
                      <ConfirmAction
                        label={
                          <>
                            <Ban className="size-4" aria-hidden /> Revoke
                            <span className="sr-only"> code {invite.code}</span>
                          </>
                        }
                        question={`Revoke invite code ${invite.code}? Nobody can join with it any more.`}
                        confirmLabel="Revoke invite"
                        busyLabel="Revoking..."
                        intent="revoke-invite"
                        fields={{ inviteId: invite.id }}
                      />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableRegion>
        )}
        <Pager
          label="Invite code pages"
          shown={rowsShown(invites.length, "invite code", invites[0]?.code)}
          previous={page.previous !== null ? teamHref({ ...query, invitesBefore: undefined, invitesAfter: page.previous }) : null}
          next={page.next !== null ? teamHref({ ...query, invitesBefore: page.next, invitesAfter: undefined }) : null}
        />
      </div>
    </section>
  );
}
