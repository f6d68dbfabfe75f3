import { Form, useActionData, useNavigation, useSubmit } from "@remix-run/react";
import { UserMinus } from "lucide-react";
import { useEffect, useState } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import type { Member, Role } from "~/platform/team";
import { ConfirmAction } from "~/components/ConfirmAction";
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
                    {member.name}
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
                            </>
                          }
                          question={`Remove ${member.name} from the organization? They lose access at once.`}
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
      </div>
    </section>
  );
}

function RoleBadge({ role }: { role: Role }) {
  return <span className={`badge ${role === "admin" ? "badge-primary" : "badge-ghost"}`}>{roleLabel(role)}</span>;
}

/** A select that saves on change once hydrated; before that (or without JavaScript) a Save button posts it. */
function RoleForm({ member }: { member: Member }) {
  const hydrated = useHydrated();
  const submit = useSubmit();
  const navigation = useNavigation();
  const actionData = useActionData();
  const [value, setValue] = useState<Role>(member.role);
  // After any answer (a refusal included) show what the server holds.
  useEffect(() => setValue(member.role), [member.role, actionData]);
  const pending = navigation.state !== "idle" && navigation.formData?.get("intent") === "role" && navigation.formData.get("memberId") === String(member.id);
  const id = `role-${member.id}`;
  return (
    <Form method="post" className="flex items-center gap-2" onChange={(e) => hydrated && submit(e.currentTarget)}>
      <input type="hidden" name="intent" value="role" />
      <input type="hidden" name="memberId" value={member.id} />
      <label htmlFor={id} className="sr-only">
        Role of {member.name}
      </label>
      <select id={id} name="role" className="select select-sm w-32" value={value} onChange={(e) => setValue(e.target.value as Role)} aria-busy={pending}>
        {ROLE_OPTIONS.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      {hydrated ? null : (
        <button type="submit" className="btn btn-sm">
          Save role
        </button>
      )}
      {pending ? (
        <span className="flex items-center gap-1 text-sm text-base-content/70" role="status">
          <span className="loading loading-spinner loading-xs" aria-hidden /> Saving...
        </span>
      ) : null}
    </Form>
  );
}
