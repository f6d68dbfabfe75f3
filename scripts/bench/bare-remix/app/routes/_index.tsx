import { useLoaderData } from "@remix-run/react";

export const loader = () => ({ greeting: "Hello from a bare Remix app" });

export default function Index() {
  const { greeting } = useLoaderData<typeof loader>();
  return <h1>{greeting}</h1>;
}
