// A bare Remix app's server: plain Express and the Remix handler, nothing else (what a new app is).
// The bench copies it beside the packages it is to run on (bench/api.ts), so its imports resolve there.
import path from "node:path";
import { createRequestHandler } from "@remix-run/express";
import express from "express";

const buildDir = process.env.BARE_REMIX_BUILD;
const app = express();
app.use("/assets", express.static(path.join(buildDir, "client/assets"), { immutable: true, maxAge: "1y" }));
app.all("*", createRequestHandler({ build: await import(path.join(buildDir, "server/index.js")) }));
app.listen(Number(process.env.PORT), "127.0.0.1");
