import { PINNED_END_CELL, TableRegion } from "~/components/TableRegion";
import { Form, Link, useActionData } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { Search, UserMinus } from "lucide-react";
import { MEMBER_SEARCH_MAX } from "@contract/team";
import type { Member, Role } from "~/platform/team";
import { ConfirmAction } from "~/components/ConfirmAction";
import { Pager, rowsShown } from "~/components/Pager";
import type { KeysetPage } from "~/lib/keyset-page";
import { SaveOnChangeSelect } from "~/components/SaveOnChangeSelect";
import { isolate } from "~/lib/bidi";
import { canManageMember, roleLabel, ROLE_OPTIONS } from "./member-rules";
import type { TeamQuery } from "./team-query";
import { teamHref } from "./team-query";

interface MemberTableProps {
  /** A page of the members in joined order, of those the search found when there is one. */
  page: KeysetPage<Member>;
  /** The page's address: the search, and the invite list's page, which the pager keeps. */
  query: TeamQuery;
  viewer: { userId: number; role: Role };
}

/**
 * Members with name, email and role, a page at a time; admins change and remove other members
 * (SPEC §2 /team). A team larger than a page gets a search by name or email.
 */
export function MemberTable({ page, query, viewer }: MemberTableProps) {
  const { q } = query;
  const isAdmin = viewer.role === "admin";
  const members = page.rows;
  const paged = page.next !== null || page.previous !== null;
  return (
    <section className="card bg-base-100 shadow-sm" aria-labelledby="members-title">
      <div className="card-body">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id="members-title" className="card-title">
            {/* A count only when it is all of them: pages by keyset don't know how many come after. */}
            Members {paged ? null : <span className="badge badge-ghost">{members.length}</span>}
          </h2>
          {paged || q ? <MemberSearch q={q} /> : null}
        </div>
        {/* What a search found, for those who don't see the table change: always there, so it is heard. */}
        <p className="sr-only" role="status">
          {q && members.length > 0 && page.previous === null
            ? page.next !== null
              ? `More than ${members.length} members match.`
              : `${members.length} ${members.length === 1 ? "member matches" : "members match"}.`
            : null}
        </p>
        {members.length === 0 && q ? (
          <p className="py-6 text-center text-base-content/70" role="status">
            No members match “<bdi>{q}</bdi>”.{" "}
            <Link to="/team" className="link">
              Clear search
            </Link>
          </p>
        ) : (
          <TableRegion label="Members table">
            <table className="table">
              <thead>
                <tr>
                  <th>Name</th>
                  <th>Email</th>
                  <th>Role</th>
                  {isAdmin ? <th className={`text-right ${PINNED_END_CELL}`}>Actions</th> : null}
                </tr>
              </thead>
              <tbody>
                {members.map((member) => {
                  const manageable = canManageMember(viewer, member);
                  return (
                    <tr key={member.id}>
                      <td className="font-medium">
                        {/* Isolated from the badge after it: a right-to-left name would take it to its other side. */}
                        <bdi>{member.name}</bdi>
                        {member.id === viewer.userId ? <span className="badge badge-ghost badge-sm ml-2">you</span> : null}
                      </td>
                      {/* A long address may break anywhere: unbroken, it took the row's width from the name and the actions. */}
                      <td className="text-base-content/70 [overflow-wrap:anywhere]">
                        <bdi>{member.email}</bdi>
                        {/* Absent (an earlier platform) marks nothing; false is a provider that never proved the address. */}
                        {member.emailVerified === false ? (
                          <span className="badge badge-ghost badge-sm ml-2 whitespace-nowrap" title="The sign-in provider has not confirmed this email">
                            unverified
                          </span>
                        ) : null}
                      </td>
                      <td>{manageable ? <RoleForm member={member} /> : <RoleBadge role={member.role} />}</td>
                      {isAdmin ? (
                        <td className={`text-right ${PINNED_END_CELL}`}>
                          {manageable ? (
                            <ConfirmAction
                              label={
                                <>
                                  <UserMinus className="size-4" aria-hidden /> Remove
                                  <span className="sr-only"> {member.name}</span>
                                </>
                              }
                              question={`Remove ${isolate(member.name)} from the organization? They lose access to the console at once.`}
                              confirmLabel="Remove member"
                              busyLabel="Removing..."
                              intent="remove"
                              fields={{ memberId: member.id }}
                            >
                              {/* Their API tokens are the organization's and keep working unless revoked: the safe choice is the default. */}
                              <label className="label gap-2 whitespace-normal text-base-content">
                                <input type="checkbox" name="revokeMade" value="true" defaultChecked className="checkbox checkbox-sm" />
                                Also revoke the API tokens and invite codes they made
                              </label>
                            </ConfirmAction>
                          ) : null}
                        </td>
                      ) : null}
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </TableRegion>
        )}
        <Pager
          label="Member pages"
          shown={rowsShown(members.length, "member", members[0]?.name)}
          previous={page.previous !== null ? teamHref({ ...query, after: undefined, before: page.previous }) : null}
          next={page.next !== null ? teamHref({ ...query, after: page.next, before: undefined }) : null}
        />
      </div>
    </section>
  );
}

/** A GET form: it works before JavaScript, and the search lands in the address, so Back and a link keep it. */
function MemberSearch({ q }: { q: string }) {
  const box = useRef<HTMLInputElement>(null);
  // Back, or a search from a link, shows what the list is for. The box is kept (not made anew with
  // each search), so Enter leaves focus where it was.
  useEffect(() => {
    if (box.current && box.current.value.trim() !== q) box.current.value = q;
  }, [q]);
  return (
    <Form method="get" action="/team" role="search" className="join">
      <label className="input input-sm join-item">
        <Search className="size-4 opacity-60" aria-hidden />
        <input ref={box} type="search" name="q" defaultValue={q} maxLength={MEMBER_SEARCH_MAX} placeholder="Name or email" aria-label="Search members" />
      </label>
      <button type="submit" className="btn btn-sm join-item">
        Search
      </button>
    </Form>
  );
}

function RoleBadge({ role }: { role: Role }) {
  return <span className={`badge ${role === "admin" ? "badge-primary" : "badge-ghost"}`}>{roleLabel(role)}</span>;
}

function RoleForm({ member }: { member: Member }) {
  const actionData = useActionData();
  return (
    <SaveOnChangeSelect
      id={`role-${member.id}`}
      label={`Role of ${member.name}`}
      name="role"
      intent="role"
      fields={{ memberId: member.id }}
      options={ROLE_OPTIONS}
      value={member.role}
      answer={actionData}
      saveLabel="Save role"
      saveSubject={`of ${member.name}`}
      selectClassName="select select-sm w-32"
    />
  );
}
