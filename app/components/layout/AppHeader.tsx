import { Form, Link, useLocation } from "@remix-run/react";
import { KeptMarkup } from "~/components/KeptMarkup";
import { Popover } from "~/components/Popover";
import { Building2, Menu } from "lucide-react";
import { NAV_DRAWER_ID, useNavDrawer } from "./SidebarLayout";

interface AppHeaderProps {
  title: string;
  user: { name: string; email: string };
}

/**
 * Page title and the avatar menu with Logout (SPEC §2); below `lg`, the menu button that opens the
 * sidebar drawer: before hydration a label of the drawer's checkbox, whose keyboard focus it shows (no
 * JavaScript needed); then a button that says whether the drawer is expanded.
 */
export function AppHeader(props: AppHeaderProps) {
  // The same for a person on a page until the title or their name changes: rendered once, kept
  // (decision 0119).
  return (
    <KeptMarkup
      as="header"
      name="header"
      inputs={[props.title, props.user.name, props.user.email]}
      className="flex items-center justify-between gap-2 border-b border-base-300 bg-base-100 px-3 py-3 sm:gap-4 sm:px-6"
    >
      <HeaderContent {...props} />
    </KeptMarkup>
  );
}

/** By grapheme: the same in every locale, as the server's and the browser's renders must be. */
const graphemes = new Intl.Segmenter("en", { granularity: "grapheme" });

/**
 * The avatar's letter: the name's first character as a reader sees one (an emoji, a family of them, a
 * letter outside the BMP, a letter with its accents). The first code unit was half of a surrogate pair
 * for those: the server wrote U+FFFD, the browser the lone half, and hydration failed on every page.
 * Upper-cased without the viewer's locale, which the server doesn't share (a Turkish browser's "i").
 */
function initialOf(name: string): string {
  const first = graphemes.segment(name.trim())[Symbol.iterator]().next();
  return first.done ? "?" : first.value.segment.toUpperCase();
}

function HeaderContent({ title, user }: AppHeaderProps) {
  const initial = initialOf(user.name || user.email);
  const location = useLocation();
  const drawer = useNavDrawer();
  const menuClassName = "btn btn-square btn-ghost drawer-button lg:hidden";
  const menuContent = (
    <>
      <Menu className="size-5" aria-hidden />
      <span className="sr-only">Menu</span>
    </>
  );
  return (
    <>
      <div className="flex min-w-0 items-center gap-2">
        {drawer ? (
          <button
            ref={drawer.button}
            type="button"
            className={menuClassName}
            title="Open navigation menu"
            aria-expanded={drawer.open}
            aria-controls={drawer.controls}
            onClick={drawer.toggle}
          >
            {menuContent}
          </button>
        ) : (
          <label htmlFor={NAV_DRAWER_ID} className={menuClassName} title="Open navigation menu">
            {menuContent}
          </label>
        )}
        <h1 className="line-clamp-2 min-w-0 break-words text-xl font-semibold">{title}</h1>
      </div>
      {/* Keyed by the path: a link in the menu navigates without a page load, and the menu closes behind it. */}
      <Popover
        key={location.pathname}
        id="account-menu"
        trigger={<span className="grid size-9 place-items-center rounded-full bg-primary text-primary-content">{initial}</span>}
        triggerClassName="btn btn-circle btn-ghost"
        triggerLabel="Account menu"
        role={undefined}
        className="mt-2 w-64 rounded-box bg-base-100 p-3 shadow-lg"
      >
        {/* Cut to the menu's width, in full on hover; `dir="auto"` cuts a right-to-left name at its end. */}
        <p className="truncate font-semibold" title={user.name} dir="auto">
          {user.name}
        </p>
        <p className="truncate text-sm text-base-content/70" title={user.email} dir="auto">
          {user.email}
        </p>
        {/* Create or join another organization (issue 14). */}
        <Link to="/organizations" className="btn btn-ghost btn-sm mt-3 w-full justify-start">
          <Building2 className="size-4" aria-hidden />
          Organizations
        </Link>
        <Form method="post" action="/logout" className="mt-1">
          <button type="submit" className="btn btn-sm w-full">
            Logout
          </button>
        </Form>
      </Popover>
    </>
  );
}
