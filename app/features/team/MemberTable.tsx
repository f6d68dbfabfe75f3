import { TableRegion } from "~/components/TableRegion";
import { useActionData } from "@remix-run/react";
import { UserMinus } from "lucide-react";
import type { Member, Role } from "~/platform/team";
import { ConfirmAction } from "~/components/ConfirmAction";
import { SaveOnChangeSelect } from "~/components/SaveOnChangeSelect";
import { isolate } from "~/lib/bidi";
import { canManageMember, roleLabel, ROLE_OPTIONS } from "./member-rules";

interface MemberTableProps {
  members: Member[];
  viewer: { userId: number; role: Role };
}

/** Members with name, email and role; admins change and remove other members (SPEC §2 /team). */
export function MemberTable({ members, viewer }: MemberTableProps) {
  const isAdmin = viewer.role === "admin";
  return (
    <section className="card bg-base-100 shadow-sm" aria-labelledby="members-title">
      <div className="card-body">
        <h2 id="members-title" className="card-title">
          Members <span className="badge badge-ghost">{members.length}</span>
        </h2>
        <TableRegion label="Members table">
          <table className="table">
            <thead>
              <tr>
                <th>Name</th>
                <th>Email</th>
                <th>Role</th>
                {isAdmin ? <th className="text-right">Actions</th> : null}
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
                    <td className="text-base-content/70">{member.email}</td>
                    <td>{manageable ? <RoleForm member={member} /> : <RoleBadge role={member.role} />}</td>
                    {isAdmin ? (
                      <td className="text-right">
                        {manageable ? (
                          <ConfirmAction
                            label={
                              <>
                                <UserMinus className="size-4" aria-hidden /> Remove
                                <span className="sr-only"> {member.name}</span>
                              </>
                            }
                            question={`Remove ${isolate(member.name)} from the organization? They lose access at once.`}
                            confirmLabel="Remove member"
                            busyLabel="Removing..."
                            intent="remove"
                            fields={{ memberId: member.id }}
                          />
                        ) : null}
                      </td>
                    ) : null}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </TableRegion>
      </div>
    </section>
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
